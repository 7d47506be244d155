// Ollama's native API (DESIGN §9, issue 13) for clients that speak it (Open WebUI, Continue):
// GET /api/version, GET /api/tags, POST /api/show, POST /api/chat, POST /api/generate.
//
// With an Ollama upstream (--ollama-upstream / CAIRN_OLLAMA_URL) every request is passed
// through natively, the client's bytes as they came and the answer's bytes as they arrive.
// Without one, requests are translated to the OpenAI-compatible upstream and the answers back
// (server/ollama-openai.ts). /api/generate is autocomplete traffic and never gets memory; a
// chat request without messages (load) or with `keep_alive: 0` and none (unload) is a model
// control request and is never touched. Errors answer in Ollama's shape `{"error": "..."}`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  OllamaChatRequest,
  OllamaGenerateRequest,
  type OllamaMessage,
  OllamaShowRequest,
} from '../../../../shared/ollama.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { ChatMessageLike, EngineServices, UpstreamClient } from '../../services.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { BackgroundTasks } from '../background.ts';
import { MEMORY_HEADER, memoryHeaderValue, type MemoryTurn } from '../memory-turn.ts';
import {
  createOllamaStreamTranslator,
  fromOpenAiCompletion,
  loadAnswer,
  showFromOpenAiModel,
  tagsFromOpenAiModels,
  toOpenAiChat,
  toOpenAiGenerate,
  wantsStream,
  type OllamaKind,
} from '../ollama-openai.ts';
import { answerWithoutAgent } from '../no-agent-header.ts';
import { withPlacedContents } from '../placed-contents.ts';
import { placeMemory } from '../sticky-memory.ts';
import { parseWith } from '../validate.ts';
import {
  clientAbortSignal,
  clientGone,
  forwardForClient,
  isEventStream,
  parseUpstreamJson,
  pipeStream,
  readAnswer,
  readWhole,
  type StreamShape,
} from '../upstream-relay.ts';
import { AGENT_HEADER, CONVERSATION_HEADER, deriveConversationId, headerValue } from './proxy.ts';

export interface OllamaRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  chatBodyLimit: number;
  /** The native Ollama upstream; null: translate to the OpenAI-compatible upstream. */
  ollamaUpstream: UpstreamClient | null;
}

const NDJSON = 'application/x-ndjson';

/**
 * The API's errors (`{"error":{"message",...}}`, from the one error handler, the security
 * hook included) rewritten into Ollama's `{"error":"..."}`, which every Ollama client reads.
 */
async function ollamaErrorShape(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  try {
    const body = JSON.parse(payload) as { error?: { message?: unknown } };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') {
      return JSON.stringify({ error: body.error.message });
    }
  } catch {
    // not JSON: left as it is
  }
  return payload;
}

/** How a relayed answer ends when it fails after the headers: Ollama's error line. */
const NDJSON_ERRORS: Pick<StreamShape, 'errorEvent'> = {
  errorEvent: (err) => JSON.stringify({ error: err.message }) + '\n',
};

/** The assistant text of a native Ollama answer (NDJSON stream or one object). */
export function readOllamaAnswer(text: string): { text: string; completed: boolean } {
  let answer = '';
  let completed = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const obj = JSON.parse(line) as {
        message?: { content?: unknown };
        response?: unknown;
        done?: unknown;
      };
      const piece = obj.message?.content ?? obj.response;
      if (typeof piece === 'string') answer += piece;
      if (obj.done === true) completed = true;
    } catch {
      // not an answer line
    }
  }
  return { text: answer, completed };
}

const NO_BLOCK = { block: '', tokens: 0, section: 'none' as const };

/** Whether a control request unloads (`keep_alive: 0`, in any of Ollama's spellings). */
function isUnload(keepAlive: unknown): boolean {
  return keepAlive === 0 || keepAlive === '0' || keepAlive === '0s' || keepAlive === '0m';
}

export function registerOllamaRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: OllamaRouteOptions,
): void {
  const native = options.ollamaUpstream;
  const routeOptions = { onSend: ollamaErrorShape };
  const clock = services.clock;
  const log = services.logger.child('ollama');
  const memoryDeps = { services, background: options.background, writer: options.writer };

  /** A native call relayed byte for byte (status, content type and body). */
  const passThrough = async (
    request: FastifyRequest,
    reply: FastifyReply,
    upstream: UpstreamClient,
    method: 'GET' | 'POST',
    path: string,
    payload?: string,
  ): Promise<{ reply: FastifyReply; answer: Promise<string | null> }> => {
    const abort = clientAbortSignal(reply);
    const res = await forwardForClient(reply, upstream, { method, path, body: payload }, abort);
    if (res === null) return { reply, answer: Promise.resolve(null) };
    const piped = pipeStream(reply, res, upstream, abort, log, {
      contentType: res.contentType ?? 'application/json',
      ...NDJSON_ERRORS,
    });
    return { reply, answer: piped.then(({ sse, ok }) => (ok ? sse : null)) };
  };

  /** An /api/chat or /api/generate request answered by the OpenAI-compatible upstream. */
  const translated = async (
    reply: FastifyReply,
    kind: OllamaKind,
    model: string,
    stream: boolean,
    call: { path: string; body: Record<string, unknown> },
    startedAt: number,
  ): Promise<{ reply: FastifyReply; answer: Promise<string | null> }> => {
    const upstream = services.upstream;
    const abort = clientAbortSignal(reply);
    const res = await forwardForClient(
      reply,
      upstream,
      { method: 'POST', path: call.path, body: JSON.stringify(call.body) },
      abort,
    );
    if (res === null) return { reply, answer: Promise.resolve(null) };
    const isSse = isEventStream(res);
    if (isSse && stream) {
      const translator = createOllamaStreamTranslator(kind, model, startedAt);
      const piped = pipeStream(reply, res, upstream, abort, log, {
        contentType: NDJSON,
        translate: (chunk) => translator.push(chunk.toString('utf8'), clock.now()),
        end: () => translator.finish(clock.now()),
        ...NDJSON_ERRORS,
      });
      const answer = piped.then(({ ok }) => (ok ? translator.text() : null));
      return { reply, answer };
    }
    const text = await readWhole(res, abort);
    if (text === null) return { reply: clientGone(reply), answer: Promise.resolve(null) };
    let out: Record<string, unknown>;
    if (isSse) {
      // A stream the client did not ask for (an upstream that ignores stream: false).
      const translator = createOllamaStreamTranslator(kind, model, startedAt);
      translator.push(text, clock.now());
      out = translator.whole(clock.now());
    } else {
      const completion = parseUpstreamJson<Parameters<typeof fromOpenAiCompletion>[2]>(text);
      out = fromOpenAiCompletion(kind, model, completion, {
        startedAt,
        firstTokenAt: null,
        endedAt: clock.now(),
      });
    }
    // A stream was asked for but the upstream answered whole: one closing NDJSON line.
    if (stream)
      reply
        .code(200)
        .type(NDJSON)
        .send(JSON.stringify(out) + '\n');
    else reply.code(200).send(out);
    const message = (out.message as { content?: string } | undefined)?.content;
    return { reply, answer: Promise.resolve(message ?? (out.response as string) ?? '') };
  };

  app.get('/api/version', routeOptions, async (request, reply) => {
    if (native) return (await passThrough(request, reply, native, 'GET', '/api/version')).reply;
    return { version: services.version };
  });

  app.get('/api/tags', routeOptions, async (request, reply) => {
    if (native) return (await passThrough(request, reply, native, 'GET', '/api/tags')).reply;
    return tagsFromOpenAiModels(await openAiModels(reply));
  });

  app.post('/api/show', routeOptions, async (request, reply) => {
    const body = parseWith(OllamaShowRequest, request.body);
    if (native) {
      return (await passThrough(request, reply, native, 'POST', '/api/show', request.rawBody))
        .reply;
    }
    const name = (body.model ?? body.name)!;
    const shown = showFromOpenAiModel(await openAiModels(reply), name);
    if (!shown) throw new CairnError(ErrorCode.NotFound, `model '${name}' not found`);
    return shown;
  });

  /** The OpenAI-compatible upstream's model list. */
  const openAiModels = async (reply: FastifyReply) => {
    const upstream = services.upstream;
    const abort = clientAbortSignal(reply);
    const res = await upstream.forward({ method: 'GET', path: '/models', signal: abort.signal });
    return parseUpstreamJson<Parameters<typeof tagsFromOpenAiModels>[0]>(await readAnswer(res));
  };

  app.post(
    '/api/generate',
    { ...routeOptions, bodyLimit: options.chatBodyLimit },
    async (request, reply) => {
      const startedAt = clock.now();
      const body = parseWith(OllamaGenerateRequest, request.body);
      if (native) {
        const payload = request.rawBody ?? JSON.stringify(body);
        return (await passThrough(request, reply, native, 'POST', '/api/generate', payload)).reply;
      }
      if (body.prompt === undefined || body.prompt === '') {
        if (body.suffix === undefined || body.suffix === '') {
          const reason = isUnload(body.keep_alive) ? 'unload' : 'load';
          return loadAnswer('generate', body.model, clock.now(), reason);
        }
      }
      const call = toOpenAiGenerate(body);
      return (await translated(reply, 'generate', body.model, wantsStream(body), call, startedAt))
        .reply;
    },
  );

  app.post(
    '/api/chat',
    { ...routeOptions, bodyLimit: options.chatBodyLimit },
    async (request, reply) => {
      const startedAt = clock.now();
      const body = parseWith(OllamaChatRequest, request.body);
      const agentId = headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id');
      let messages = body.messages ?? [];
      // A load or unload request: nothing to answer, nothing to remember.
      if (messages.length === 0) {
        if (agentId !== null) {
          reply.header(MEMORY_HEADER, memoryHeaderValue({ ...NO_BLOCK, reason: 'no-user-text' }));
        }
        if (native) {
          const payload = request.rawBody ?? JSON.stringify(body);
          return (await passThrough(request, reply, native, 'POST', '/api/chat', payload)).reply;
        }
        const reason = isUnload(body.keep_alive) ? 'unload' : 'load';
        return loadAnswer('chat', body.model, clock.now(), reason);
      }

      let payload = request.rawBody ?? JSON.stringify(body);
      let turn: MemoryTurn | null = null;
      if (agentId !== null) {
        // Translated, the OpenAI-compatible upstream answers this model (a native Ollama
        // upstream may know models the OpenAI-compatible one does not).
        const model = native ? null : body.model;
        const placed = await placeChatMemory(request, reply, agentId, messages, startedAt, model);
        if (placed === null) return clientGone(reply);
        reply.header(MEMORY_HEADER, placed.header);
        if (placed.messages !== messages) {
          messages = placed.messages;
          payload = JSON.stringify({ ...body, messages });
        }
        turn = placed.turn;
      } else {
        answerWithoutAgent(services, request, reply, 'ollama');
      }

      const sent = native
        ? await passThrough(request, reply, native, 'POST', '/api/chat', payload)
        : await translated(
            reply,
            'chat',
            body.model,
            wantsStream(body),
            { path: '/chat/completions', body: toOpenAiChat(body, messages) },
            startedAt,
          );
      if (turn) {
        const t = turn;
        void sent.answer.then((answer) => {
          if (answer === null) return;
          // Parsing waits for a quiet moment with the recording: nobody waits for it.
          t.recordAnswer(() => {
            if (!native) return answer;
            const { text, completed } = readOllamaAnswer(answer);
            return completed ? text : null;
          });
        });
      }
      return sent.reply;
    },
  );

  /**
   * Sticky memory for an Ollama chat (DESIGN §9): remembered blocks go back into the user
   * messages they were added to, a fresh one into the newest user message. Null when the
   * client went away during the lookup.
   */
  const placeChatMemory = async (
    request: FastifyRequest,
    reply: FastifyReply,
    agentId: string,
    messages: OllamaMessage[],
    startedAt: number,
    model: string | null,
  ): Promise<{ turn: MemoryTurn | null; header: string; messages: OllamaMessage[] } | null> => {
    const conversationId =
      headerValue(request, CONVERSATION_HEADER, 'X-Osaurus-Conversation-Id') ??
      deriveConversationId(agentId, messages as ChatMessageLike[]);
    const latestUser = messages.findLastIndex((m) => m.role === 'user');
    // Tool results after the newest user message: that message was answered (and recorded)
    // in the earlier turn; only this answer is recorded now.
    const toolContinuation =
      latestUser >= 0 && messages.slice(latestUser + 1).some((m) => m.role === 'tool');
    const userMessages = messages.flatMap((m, index) =>
      m.role === 'user' ? [{ index, content: m.content ?? '' }] : [],
    );
    const abort = clientAbortSignal(reply);
    try {
      const placed = await placeMemory(memoryDeps, {
        protocol: 'ollama',
        agentId,
        conversationId,
        model,
        userText: latestUser >= 0 ? (messages[latestUser]!.content ?? '') : null,
        skip: toolContinuation ? 'tool-continuation' : null,
        recordUser: latestUser === messages.length - 1,
        startedAt,
        signal: abort.signal,
        userMessages,
        newestIndex: latestUser >= 0 ? latestUser : null,
        partType: 'text',
      });
      const next = withPlacedContents(messages, placed.contents);
      // Memory switched off in the settings: nothing is injected and nothing is recorded.
      return {
        turn: placed.turn.active ? placed.turn : null,
        header: placed.header,
        messages: next,
      };
    } catch (err) {
      if (abort.signal.aborted) return null;
      throw err;
    }
  };
}
