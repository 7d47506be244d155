import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChatCompletionRequest } from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import { stripPrivate } from '../../text/private.ts';
import type { ChatMessageLike, EngineServices } from '../../services.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { BackgroundTasks } from '../background.ts';
import { errorBody } from '../error-handler.ts';
import { MEMORY_HEADER, type MemoryTurn } from '../memory-turn.ts';
import { answerWithoutAgent } from '../no-agent-header.ts';
import { withPlacedContents } from '../placed-contents.ts';
import { type PlacedMemory, placeMemory, type UserMessageSlot } from '../sticky-memory.ts';
import {
  clientAbortSignal,
  clientGone,
  readAnswer,
  passThrough,
  type StreamShape,
} from '../upstream-relay.ts';
import { parseWith } from '../validate.ts';

// DESIGN §5: the OpenAI-compatible proxy. Without X-Osaurus-Agent-Id it is a pure
// pass-through (the client's bytes are forwarded as they came, nothing is recorded). With it,
// the memory block goes in front of the latest user message, everything else is forwarded
// unchanged, the answer is streamed through as it arrives, and the turn is recorded only
// once the answer completed, after the response was sent.

export const AGENT_HEADER = 'x-osaurus-agent-id';
export const CONVERSATION_HEADER = 'x-osaurus-conversation-id';

export interface ProxyRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  chatBodyLimit: number;
}

export function headerValue(request: FastifyRequest, name: string, field: string): string | null {
  const raw = request.headers[name];
  if (raw === undefined) return null;
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (v === '') return null;
  if (v.length > 200) {
    throw new CairnError(ErrorCode.ValidationFailed, `${field} is at most 200 characters.`);
  }
  return v;
}

/** The text of a message: a string, or its text parts joined. */
export function messageText(message: ChatMessageLike | undefined): string {
  const c = message?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    return c
      .filter((p) => p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n');
  }
  return '';
}

/**
 * `agentId:` + the first 16 hex of sha256(first user message): stable across resends, since
 * clients send the whole history every turn. A first message without text (image-only, or a
 * request with no user message) is hashed whole, so such conversations do not all collapse
 * into the id of the empty string. `<private>` spans are replaced before hashing (DESIGN §6):
 * the id is stored and shown, and the hash of a short secret could be guessed back.
 * First messages that differ only inside private spans therefore share an id.
 */
export function deriveConversationId(agentId: string, messages: ChatMessageLike[]): string {
  const first = messages.find((m) => m.role === 'user');
  const text = messageText(first);
  const basis = text !== '' ? text : JSON.stringify(first?.content ?? messages[0] ?? null);
  const hash = createHash('sha256').update(stripPrivate(basis)).digest('hex').slice(0, 16);
  return `${agentId}:${hash}`;
}

/** Collects the assistant text of an SSE body and whether it finished properly. */
export function readSseTranscript(sse: string): { text: string; completed: boolean } {
  let text = '';
  let completed = false;
  for (const line of sse.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      completed = true;
      continue;
    }
    if (data === '') continue;
    try {
      const chunk = JSON.parse(data) as {
        choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
      };
      const choice = chunk.choices?.[0];
      if (typeof choice?.delta?.content === 'string') text += choice.delta.content;
      if (choice?.finish_reason) completed = true;
    } catch {
      // a provider's keep-alive or comment: not part of the answer
    }
  }
  return { text, completed };
}

/** The user messages of a chat request, as sticky-memory slots. */
function userSlots(messages: ChatMessageLike[]): UserMessageSlot[] {
  const slots: UserMessageSlot[] = [];
  messages.forEach((m, index) => {
    if (m.role === 'user') slots.push({ index, content: m.content });
  });
  return slots;
}

/** An OpenAI chat stream passed through as it came. */
export const OPENAI_STREAM: StreamShape = {
  errorEvent: (err) => `data: ${JSON.stringify(errorBody(err))}\n\n`,
};

export function registerProxyRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: ProxyRouteOptions,
): void {
  const log = services.logger.child('proxy');
  const memoryDeps = { services, background: options.background, writer: options.writer };

  app.post('/v1/chat/completions', { bodyLimit: options.chatBodyLimit }, async (request, reply) => {
    const startedAt = services.clock.now();
    parseWith(ChatCompletionRequest, request.body);
    const body = request.body as ChatCompletionRequest & Record<string, unknown>;
    const messages = body.messages as ChatMessageLike[];
    const agentId = headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id');
    const upstream = services.upstream;
    const abort = clientAbortSignal(reply);

    let payload = request.rawBody ?? JSON.stringify(body);
    let turn: MemoryTurn | null = null;
    if (agentId !== null) {
      const conversationId =
        headerValue(request, CONVERSATION_HEADER, 'X-Osaurus-Conversation-Id') ??
        deriveConversationId(agentId, messages);
      const latestUser = messages.findLastIndex((m) => m.role === 'user');
      // A tool-result continuation ends with tool messages: its user message was answered
      // (and recorded, with its block) in the earlier turn; only the answer is recorded now.
      const toolContinuation =
        latestUser >= 0 && messages.slice(latestUser + 1).some((m) => m.role === 'tool');
      const lastIsUser = latestUser === messages.length - 1;
      const userText = latestUser >= 0 ? messageText(messages[latestUser]) : null;
      let placed: PlacedMemory;
      try {
        placed = await placeMemory(memoryDeps, {
          protocol: 'chat',
          agentId,
          conversationId,
          userText,
          model: body.model,
          skip: toolContinuation ? 'tool-continuation' : null,
          recordUser: lastIsUser,
          startedAt,
          signal: abort.signal,
          userMessages: userSlots(messages),
          newestIndex: latestUser >= 0 ? latestUser : null,
          partType: 'text',
        });
      } catch {
        return clientGone(reply);
      }
      turn = placed.turn;
      reply.header(MEMORY_HEADER, placed.header);
      if (placed.contents.size > 0) {
        payload = JSON.stringify({
          ...body,
          messages: withPlacedContents(messages, placed.contents),
        });
      }
      // Memory switched off in the settings: nothing is injected and nothing is recorded.
      if (!turn.active) turn = null;
    } else {
      answerWithoutAgent(services, request, reply, 'chat');
    }

    return passThrough({
      reply,
      upstream,
      request: { method: 'POST', path: '/chat/completions', body: payload },
      abort,
      log,
      stream: OPENAI_STREAM,
      turn,
      streamedText: readSseTranscript,
      wholeText: (text) => {
        let content: unknown;
        try {
          content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] })
            .choices?.[0]?.message?.content;
        } catch {
          log.warn('upstream answer is not JSON; turn not recorded');
          return null;
        }
        return typeof content === 'string' ? content : '';
      },
    });
  });

  app.get('/v1/models', async (request, reply) => {
    const upstream = services.upstream;
    const abort = clientAbortSignal(reply);
    const res = await upstream.forward({ method: 'GET', path: '/models', signal: abort.signal });
    const text = await readAnswer(res);
    return reply
      .code(res.status)
      .header('content-type', res.contentType ?? 'application/json')
      .send(text);
  });
}
