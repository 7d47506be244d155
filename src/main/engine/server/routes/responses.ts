import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResponsesRequest } from '../../../../shared/wire-formats.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { MessageContent } from '../../memory/inject.ts';
import type { ChatMessageLike, EngineServices } from '../../services.ts';
import { loadResponseChain, pruneResponses, saveResponse } from '../../store/response-chain.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { BackgroundTasks } from '../background.ts';
import type { ChatAnswer } from '../formats/chat-stream.ts';
import {
  answerToChatMessages,
  chatAnswerToResponse,
  createResponsesStreamTranslator,
  inputToChatMessages,
  isRoleItem,
  itemText,
  newResponseId,
  readResponsesSse,
  type ResponseFrame,
  responseAnswerText,
  responsesErrorEvent,
  responsesToChat,
} from '../formats/responses.ts';
import { MEMORY_HEADER, type MemoryTurn } from '../memory-turn.ts';
import { answerWithoutAgent } from '../no-agent-header.ts';
import { placeMemory, type UserMessageSlot } from '../sticky-memory.ts';
import { withPlacedContents } from '../placed-contents.ts';
import { parseWith } from '../validate.ts';
import { forwardTranslatedChat } from '../translated-chat.ts';
import { clientAbortSignal, clientGone, passThrough, type StreamShape } from '../upstream-relay.ts';
import { AGENT_HEADER, CONVERSATION_HEADER, deriveConversationId, headerValue } from './proxy.ts';

// OpenAI Responses (DESIGN §9), for clients such as Codex CLI. When the OpenAI-compatible
// upstream serves /responses itself (a setting: engine config `upstreamResponses`, CLI
// CAIRN_UPSTREAM_RESPONSES=1; a setting rather than probing, because a 404 from a provider
// also means "no such model") requests pass through in this format. Otherwise they are
// translated to chat completions and back, and `previous_response_id` works by keeping each
// response's messages in the encrypted database. `instructions` become the system message and
// are never touched by memory.

/** Stored responses older than this are forgotten (OpenAI keeps them 30 days). */
const RESPONSE_RETENTION_MS = 30 * 24 * 3600 * 1000;

export interface ResponsesRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  bodyLimit: number;
  /** The upstream serves /responses: pass through instead of translating. */
  passThrough: boolean;
}

type Item = Record<string, unknown>;

interface PreparedInput {
  input: ResponsesRequest['input'];
  turn: MemoryTurn | null;
  agentId: string | null;
  conversationId: string | null;
}

function userSlots(input: ResponsesRequest['input']): UserMessageSlot[] {
  if (typeof input === 'string') return [{ index: 0, content: input }];
  return (input as Item[]).flatMap((item, index) =>
    isRoleItem(item, 'user') ? [{ index, content: item.content as MessageContent }] : [],
  );
}

function withContents(
  input: ResponsesRequest['input'],
  contents: Map<number, MessageContent>,
): ResponsesRequest['input'] {
  if (contents.size === 0) return input;
  if (typeof input === 'string') return contents.get(0) as string;
  return withPlacedContents(input as Item[], contents);
}

/** Sticky memory for a Responses request; the header says what happened. */
async function prepareInput(
  deps: Parameters<typeof placeMemory>[0],
  request: FastifyRequest,
  reply: FastifyReply,
  body: ResponsesRequest,
  chainConversation: string | null,
  startedAt: number,
  signal: AbortSignal,
): Promise<PreparedInput> {
  const agentId = headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id');
  if (agentId === null) {
    answerWithoutAgent(deps.services, request, reply, 'responses');
    return { input: body.input, turn: null, agentId: null, conversationId: null };
  }
  const input = body.input;
  const slots = userSlots(input);
  const newest = slots.at(-1)?.index ?? null;
  const items = typeof input === 'string' ? [] : (input as Item[]);
  const toolContinuation =
    newest !== null && items.slice(newest + 1).some((i) => i.type === 'function_call_output');
  const firstUser = slots[0];
  const conversationId =
    headerValue(request, CONVERSATION_HEADER, 'X-Osaurus-Conversation-Id') ??
    chainConversation ??
    deriveConversationId(agentId, [{ role: 'user', content: itemText(firstUser?.content) }]);
  const placed = await placeMemory(deps, {
    protocol: 'responses',
    agentId,
    conversationId,
    // Passed through or translated, the OpenAI-compatible upstream answers this model.
    model: body.model,
    userText: newest === null ? null : itemText(slots.at(-1)!.content),
    skip: toolContinuation ? 'tool-continuation' : null,
    recordUser: !toolContinuation && newest !== null && newest === Math.max(0, items.length - 1),
    startedAt,
    signal,
    userMessages: slots,
    newestIndex: newest,
    partType: 'input_text',
  });
  reply.header(MEMORY_HEADER, placed.header);
  return {
    input: withContents(input, placed.contents),
    turn: placed.turn.active ? placed.turn : null,
    agentId,
    conversationId,
  };
}

export function registerResponsesRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: ResponsesRouteOptions,
): void {
  const log = services.logger.child('responses');
  const deps = { services, background: options.background, writer: options.writer };
  const streamErrors: StreamShape = {
    errorEvent: (err) => responsesErrorEvent(err.code, err.message),
  };

  app.post('/v1/responses', { bodyLimit: options.bodyLimit }, async (request, reply) => {
    const startedAt = services.clock.now();
    const body = parseWith(ResponsesRequest, request.body);
    const original = request.body as Record<string, unknown>;
    const abort = clientAbortSignal(reply);
    const upstream = services.upstream;
    const agentKey = headerValue(request, AGENT_HEADER, 'X-Osaurus-Agent-Id') ?? '';

    // previous_response_id against a translated upstream: the chain must be known here.
    let history: ChatMessageLike[] = [];
    let chainConversation: string | null = null;
    if (!options.passThrough && body.previous_response_id) {
      const chain = loadResponseChain(services.db, agentKey, body.previous_response_id);
      if (chain === null) {
        throw new CairnError(
          ErrorCode.ValidationFailed,
          `Previous response with id '${body.previous_response_id}' not found.`,
        );
      }
      history = chain.flatMap((r) => JSON.parse(r.messages) as ChatMessageLike[]);
      chainConversation = chain.at(-1)?.conversationId ?? null;
    }

    let prepared: PreparedInput;
    try {
      prepared = await prepareInput(
        deps,
        request,
        reply,
        body,
        chainConversation,
        startedAt,
        abort.signal,
      );
    } catch (err) {
      if (abort.signal.aborted) return clientGone(reply);
      throw err;
    }
    const { turn } = prepared;

    if (options.passThrough) {
      const payload =
        prepared.input !== body.input
          ? JSON.stringify({ ...original, input: prepared.input })
          : (request.rawBody ?? JSON.stringify(original));
      return passThrough({
        reply,
        upstream,
        request: { method: 'POST', path: '/responses', body: payload },
        abort,
        log,
        stream: streamErrors,
        turn,
        streamedText: readResponsesSse,
        wholeText: responseAnswerText,
      });
    }

    // Translated to chat completions.
    const input = inputToChatMessages(prepared.input);
    const chat = responsesToChat(body, history, input);
    const frame: ResponseFrame = {
      id: newResponseId(),
      model: body.model,
      createdAt: services.clock.now(),
      body,
    };
    const remember = (answer: ChatAnswer) => {
      if (body.store === false) return;
      const now = services.clock.now();
      saveResponse(services.db, {
        id: frame.id,
        agentId: agentKey,
        conversationId: prepared.conversationId,
        previousId: body.previous_response_id ?? null,
        messages: JSON.stringify([...input, ...answerToChatMessages(answer)]),
        createdAt: now,
      });
      pruneResponses(services.db, now - RESPONSE_RETENTION_MS);
    };
    const translator = createResponsesStreamTranslator(frame, remember);
    const answer = await forwardTranslatedChat({
      reply,
      upstream,
      abort,
      log,
      chat,
      stream: { ...translator, ...streamErrors },
      turn,
    });
    if (answer === null) return reply;
    remember(answer);
    reply.code(200).send(chatAnswerToResponse(frame, answer));
    turn?.recordAnswer(() => answer.text);
    return reply;
  });
}
