import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AnthropicCountTokensRequest,
  type AnthropicMessage,
  AnthropicMessagesRequest,
} from '../../../../shared/wire-formats.ts';
import { countTokens } from '../../memory/tokens.ts';
import type { ChatMessageLike, EngineServices, UpstreamClient } from '../../services.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { UpstreamResponse } from '../../upstream/upstream-client.ts';
import type { BackgroundTasks } from '../background.ts';
import {
  anthropicAnswerText,
  anthropicErrorBody,
  anthropicToChat,
  anthropicUserText,
  chatAnswerToAnthropic,
  createAnthropicStreamTranslator,
  isToolResultsOnly,
  readAnthropicSse,
} from '../formats/anthropic.ts';
import { sseEvent } from '../formats/sse.ts';
import { MEMORY_HEADER, type MemoryTurn } from '../memory-turn.ts';
import { answerWithoutAgent } from '../no-agent-header.ts';
import { withPlacedContents } from '../placed-contents.ts';
import { placeMemory } from '../sticky-memory.ts';
import { parseWith } from '../validate.ts';
import { forwardTranslatedChat } from '../translated-chat.ts';
import {
  clientAbortSignal,
  clientGone,
  readWhole,
  passThrough,
  type StreamShape,
} from '../upstream-relay.ts';
import { AGENT_HEADER, CONVERSATION_HEADER, deriveConversationId, headerValue } from './proxy.ts';

// Anthropic Messages (DESIGN §9), for clients such as Claude Code (ANTHROPIC_BASE_URL, the
// agent header via ANTHROPIC_CUSTOM_HEADERS). With an Anthropic upstream configured the request
// is passed through in its own format: anthropic-* headers, unknown fields, cache_control and
// system blocks untouched, only the memory text part added; the provider's answer, usage and
// errors (with retry-after) come back as they are. Without one it is translated to the
// OpenAI-compatible upstream and its answer translated back. Errors Cairn itself answers are
// in Anthropic's shape.

/** Claude Code marks its side requests (titles, summaries); only `main` is the user's turn. */
const REQUEST_CLASS_HEADER = 'x-claude-code-request-class';
/** Response headers of the provider a pass-through hands back. */
const PASSED_RESPONSE_HEADER = /^(anthropic-|retry-after$|request-id$|x-request-id$)/;

export interface AnthropicRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  bodyLimit: number;
  /** The Anthropic upstream (pass-through), or null: translate to the OpenAI-compatible one. */
  anthropicUpstream: UpstreamClient | null;
}

const ANTHROPIC_STREAM_ERRORS: StreamShape = {
  errorEvent: (err) => sseEvent('error', anthropicErrorBody(err.status, err.message)),
};

/** The `anthropic-*` headers of the client's request (version, beta flags). */
function anthropicHeaders(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith('anthropic-') && value !== undefined) {
      out[name] = Array.isArray(value) ? value.join(',') : value;
    }
  }
  return out;
}

function passResponseHeaders(reply: FastifyReply, res: UpstreamResponse): void {
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined && PASSED_RESPONSE_HEADER.test(name)) reply.header(name, value);
  }
}

interface PreparedMemory {
  messages: AnthropicMessage[];
  turn: MemoryTurn | null;
}

/** Sticky memory for an Anthropic request; the header says what happened. */
async function prepareMemory(
  deps: Parameters<typeof placeMemory>[0],
  request: FastifyRequest,
  reply: FastifyReply,
  messages: AnthropicMessage[],
  startedAt: number,
  signal: AbortSignal,
  /** The request's model when it is translated to the OpenAI-compatible upstream, else null. */
  model: string | null,
): Promise<PreparedMemory> {
  const agentId = headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id');
  if (agentId === null) {
    answerWithoutAgent(deps.services, request, reply, 'anthropic');
    return { messages, turn: null };
  }
  const requestClass = headerValue(request, REQUEST_CLASS_HEADER, REQUEST_CLASS_HEADER);
  if (requestClass !== null && requestClass !== 'main') {
    // A side request of the client: no memory, nothing recorded.
    reply.header(MEMORY_HEADER, 'none; reason=auxiliary');
    return { messages, turn: null };
  }
  const conversationId =
    headerValue(request, CONVERSATION_HEADER, 'X-Osaurus-Conversation-Id') ??
    deriveConversationId(agentId, messages as unknown as ChatMessageLike[]);
  const newest = messages.findLastIndex((m) => m.role === 'user');
  const toolOnly = newest >= 0 && isToolResultsOnly(messages[newest]!);
  const placed = await placeMemory(deps, {
    protocol: 'anthropic',
    agentId,
    conversationId,
    model,
    userText: newest >= 0 ? anthropicUserText(messages[newest]) : null,
    skip: toolOnly ? 'tool-continuation' : null,
    recordUser: !toolOnly && newest === messages.length - 1,
    startedAt,
    signal,
    userMessages: messages.flatMap((m, index) =>
      m.role === 'user' ? [{ index, content: m.content }] : [],
    ),
    newestIndex: newest >= 0 ? newest : null,
    partType: 'text',
  });
  reply.header(MEMORY_HEADER, placed.header);
  return {
    messages: withPlacedContents(messages, placed.contents),
    turn: placed.turn.active ? placed.turn : null,
  };
}

export function registerAnthropicRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: AnthropicRouteOptions,
): void {
  const log = services.logger.child('anthropic');
  const deps = { services, background: options.background, writer: options.writer };
  // Answers a pass-through sends as the provider gave them (its own error bodies included).
  const untouched = new WeakSet<FastifyRequest>();

  void app.register(async (scope) => {
    // Errors Cairn answers (validation, auth, no upstream) come out of the shared error
    // handler in the OpenAI shape; Anthropic clients read `{type:"error", error:{type,message}}`.
    scope.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode < 400 || untouched.has(request) || typeof payload !== 'string') {
        return payload;
      }
      try {
        const body = JSON.parse(payload) as { type?: string; error?: { message?: unknown } };
        if (body.type !== 'error' && typeof body.error?.message === 'string') {
          return JSON.stringify(anthropicErrorBody(reply.statusCode, body.error.message));
        }
      } catch {
        // not JSON: leave it
      }
      return payload;
    });

    scope.post('/v1/messages', { bodyLimit: options.bodyLimit }, async (request, reply) => {
      const startedAt = services.clock.now();
      const body = parseWith(AnthropicMessagesRequest, request.body);
      const original = request.body as Record<string, unknown>;
      const abort = clientAbortSignal(reply);
      let prepared: PreparedMemory;
      try {
        prepared = await prepareMemory(
          deps,
          request,
          reply,
          body.messages,
          startedAt,
          abort.signal,
          options.anthropicUpstream?.target() ? null : body.model,
        );
      } catch (err) {
        if (abort.signal.aborted) return clientGone(reply);
        throw err;
      }
      const { turn } = prepared;
      const changed = prepared.messages !== body.messages;
      const anthropic = options.anthropicUpstream;

      if (anthropic?.target()) {
        // Pass-through: the client's JSON as it came unless a block was placed, and then
        // with only `messages` replaced (every other field in its place).
        const payload = changed
          ? JSON.stringify({ ...original, messages: prepared.messages })
          : (request.rawBody ?? JSON.stringify(original));
        return passThrough({
          reply,
          upstream: anthropic,
          request: {
            method: 'POST',
            path: '/v1/messages',
            body: payload,
            headers: anthropicHeaders(request),
            anyStatus: true,
          },
          abort,
          log,
          stream: ANTHROPIC_STREAM_ERRORS,
          turn,
          streamedText: readAnthropicSse,
          wholeText: anthropicAnswerText,
          onResponse: (res) => passResponseHeaders(reply, res),
          beforeWhole: () => untouched.add(request),
        });
      }

      // Translated to the OpenAI-compatible upstream.
      const translator = createAnthropicStreamTranslator(body.model);
      const answer = await forwardTranslatedChat({
        reply,
        upstream: services.upstream,
        abort,
        log,
        chat: anthropicToChat({ ...body, messages: prepared.messages }),
        stream: { ...translator, ...ANTHROPIC_STREAM_ERRORS },
        turn,
      });
      if (answer === null) return reply;
      reply.code(200).send(chatAnswerToAnthropic(answer, body.model));
      turn?.recordAnswer(() => answer.text);
      return reply;
    });

    scope.post(
      '/v1/messages/count_tokens',
      { bodyLimit: options.bodyLimit },
      async (request, reply) => {
        const body = parseWith(AnthropicCountTokensRequest, request.body);
        // Counting is a side request: no memory is looked up or added.
        if (headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id') !== null) {
          reply.header(MEMORY_HEADER, 'none; reason=auxiliary');
        }
        const anthropic = options.anthropicUpstream;
        if (anthropic?.target()) {
          const abort = clientAbortSignal(reply);
          const res = await anthropic.forward({
            method: 'POST',
            path: '/v1/messages/count_tokens',
            body: request.rawBody ?? JSON.stringify(request.body),
            headers: anthropicHeaders(request),
            anyStatus: true,
            signal: abort.signal,
          });
          passResponseHeaders(reply, res);
          const text = await readWhole(res, abort);
          if (text === null) return clientGone(reply);
          untouched.add(request);
          return reply
            .code(res.status)
            .header('content-type', res.contentType ?? 'application/json')
            .send(text);
        }
        // No Anthropic provider to ask: count the request's text with Cairn's tokenizer
        // (cl100k), an estimate of the same order as the model's own count.
        const chat = anthropicToChat({ ...body, max_tokens: 1 });
        const text = JSON.stringify([chat.messages, chat.tools ?? []]);
        return reply.send({ input_tokens: countTokens(text) });
      },
    );
  });
}
