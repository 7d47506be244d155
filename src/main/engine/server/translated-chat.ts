// A request of another wire format (Anthropic Messages, OpenAI Responses) translated to the
// OpenAI-compatible upstream: the one path both routes share. A streamed answer is piped
// through the format's translator as it arrives and its text recorded for the memory turn;
// a whole answer is read, parsed and handed back for the route to shape in its format.
import type { FastifyReply } from 'fastify';
import type { EngineServices, UpstreamClient } from '../services.ts';
import { type ChatAnswer, readChatCompletion } from './formats/chat-stream.ts';
import type { MemoryTurn } from './memory-turn.ts';
import { readSseTranscript } from './routes/proxy.ts';
import {
  clientGone,
  forwardForClient,
  isEventStream,
  parseUpstreamJson,
  pipeStream,
  readWhole,
  type StreamShape,
} from './upstream-relay.ts';

export interface TranslatedChat {
  reply: FastifyReply;
  upstream: UpstreamClient;
  abort: AbortController;
  log: EngineServices['logger'];
  /** The chat-completions request, already translated. */
  chat: object;
  /** How a streamed answer reaches the client (its format's events and error event). */
  stream: StreamShape;
  /** The memory turn the answer is recorded for (null: nothing is recorded). */
  turn: MemoryTurn | null;
}

/**
 * Forwards a translated request. Resolves with the parsed answer when it came whole (the
 * route shapes and sends it), or null when the reply is already taken care of: streamed to
 * the client, or the client went away.
 */
export async function forwardTranslatedChat(t: TranslatedChat): Promise<ChatAnswer | null> {
  const { reply, upstream, abort } = t;
  const res = await forwardForClient(
    reply,
    upstream,
    { method: 'POST', path: '/chat/completions', body: JSON.stringify(t.chat) },
    abort,
  );
  if (res === null) return null;
  if (isEventStream(res)) {
    const { sse, ok } = await pipeStream(reply, res, upstream, abort, t.log, {
      contentType: 'text/event-stream; charset=utf-8',
      ...t.stream,
    });
    if (ok && t.turn) {
      t.turn.recordAnswer(() => {
        const { text, completed } = readSseTranscript(sse);
        return completed ? text : null;
      });
    }
    return null;
  }
  const text = await readWhole(res, abort);
  if (text === null) {
    clientGone(reply);
    return null;
  }
  return parseUpstreamJson(text, readChatCompletion);
}
