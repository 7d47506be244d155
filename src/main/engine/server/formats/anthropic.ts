import { randomBytes } from 'node:crypto';
import type {
  AnthropicMessage,
  AnthropicMessagesRequest,
} from '../../../../shared/wire-formats.ts';
import type { ChatMessageLike } from '../../services.ts';
import { type ChatAnswer, createStreamTranslator, type StreamTranslator } from './chat-stream.ts';
import { readSseEvents, sseEvent } from './sse.ts';

// Anthropic Messages <-> OpenAI chat completions, for an Anthropic client (Claude Code) whose
// requests go to an OpenAI-compatible upstream (DESIGN §9). Wire formats:
// https://docs.anthropic.com/en/api/messages and .../messages-streaming (event order:
// message_start, then per block content_block_start / _delta... / _stop, message_delta,
// message_stop). Tool use maps to tool_calls and tool_result blocks to `tool` messages.

type Block = { type: string; [k: string]: unknown };

const blocksOf = (content: AnthropicMessage['content']): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Block[]);

const textOfBlocks = (blocks: Block[]): string =>
  blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');

/** The text a user typed in an Anthropic message (its text blocks; tool results left out). */
export function anthropicUserText(message: AnthropicMessage | undefined): string {
  return message ? textOfBlocks(blocksOf(message.content)) : '';
}

/** A user message that only carries tool results (the client continuing a tool call). */
export function isToolResultsOnly(message: AnthropicMessage): boolean {
  return (
    Array.isArray(message.content) &&
    message.content.length > 0 &&
    message.content.every((b) => b.type === 'tool_result')
  );
}

/** The text of a tool_result's content (a string or text/image blocks). */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[])
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`))
    .join('\n');
}

function imageUrl(block: Block): string | null {
  const source = block.source as
    { type?: string; media_type?: string; data?: string; url?: string } | undefined;
  if (source?.type === 'base64' && source.data) {
    return `data:${source.media_type ?? 'image/png'};base64,${source.data}`;
  }
  if (source?.type === 'url' && source.url) return source.url;
  return null;
}

/** User content as chat content: all-text stays one string (older local servers want that). */
function chatUserContent(blocks: Block[]): ChatMessageLike['content'] {
  const parts: { type: string; text?: string; image_url?: { url: string } }[] = [];
  for (const b of blocks) {
    if (b.type === 'text' && typeof b.text === 'string') parts.push({ type: 'text', text: b.text });
    else if (b.type === 'image') {
      const url = imageUrl(b);
      if (url) parts.push({ type: 'image_url', image_url: { url } });
    } else if (b.type === 'document') {
      parts.push({ type: 'text', text: '[document]' });
    }
  }
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => p.text).join('\n\n');
  return parts;
}

function chatMessagesOf(message: AnthropicMessage): ChatMessageLike[] {
  const blocks = blocksOf(message.content);
  if (message.role === 'assistant') {
    const text = textOfBlocks(blocks);
    const toolCalls = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({
        id: String(b.id),
        type: 'function',
        function: { name: String(b.name), arguments: JSON.stringify(b.input ?? {}) },
      }));
    const out: ChatMessageLike = {
      role: 'assistant',
      content: text === '' && toolCalls.length ? null : text,
    };
    if (toolCalls.length) out.tool_calls = toolCalls;
    return [out];
  }
  // tool_result blocks come first in a user message; each becomes a `tool` message, and what
  // the user wrote after them follows as the user message.
  const out: ChatMessageLike[] = [];
  for (const b of blocks) {
    if (b.type !== 'tool_result') continue;
    const text = toolResultText(b.content);
    out.push({
      role: 'tool',
      tool_call_id: String(b.tool_use_id),
      content: b.is_error === true ? `Error: ${text}` : text,
    });
  }
  const rest = blocks.filter((b) => b.type !== 'tool_result');
  if (rest.length > 0 || out.length === 0) {
    out.push({ role: 'user', content: chatUserContent(rest) });
  }
  return out;
}

function toolChoice(choice: unknown): unknown {
  const c = choice as { type?: string; name?: string } | undefined;
  switch (c?.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: c.name } };
    default:
      return undefined;
  }
}

/** The chat-completions request for an Anthropic Messages request. */
export function anthropicToChat(body: AnthropicMessagesRequest): Record<string, unknown> {
  const messages: ChatMessageLike[] = [];
  if (body.system !== undefined) {
    const system =
      typeof body.system === 'string' ? body.system : textOfBlocks(body.system as Block[]);
    if (system !== '') messages.push({ role: 'system', content: system });
  }
  for (const m of body.messages) messages.push(...chatMessagesOf(m));
  const chat: Record<string, unknown> = {
    model: body.model,
    messages,
    max_tokens: body.max_tokens,
  };
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  if (typeof body.top_p === 'number') chat.top_p = body.top_p;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length) {
    chat.stop = body.stop_sequences;
  }
  if (body.tools?.length) {
    chat.tools = body.tools
      .filter((t) => t.input_schema !== undefined)
      .map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.input_schema },
      }));
    const choice = toolChoice(body.tool_choice);
    if (choice !== undefined) chat.tool_choice = choice;
  }
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

/** Anthropic's stop_reason for a chat finish_reason. */
export function stopReason(answer: Pick<ChatAnswer, 'finishReason' | 'toolCalls'>): string {
  if (answer.finishReason === 'length') return 'max_tokens';
  if (answer.toolCalls.length > 0) return 'tool_use';
  return 'end_turn';
}

function parseInput(args: string): unknown {
  try {
    const v: unknown = JSON.parse(args === '' ? '{}' : args);
    return v !== null && typeof v === 'object' ? v : { value: v };
  } catch {
    return { raw: args };
  }
}

export const newMessageId = (): string => `msg_${randomBytes(12).toString('hex')}`;

/** An Anthropic message for a whole chat answer. */
export function chatAnswerToAnthropic(answer: ChatAnswer, model: string): Record<string, unknown> {
  const content: Block[] = [];
  if (answer.text !== '') content.push({ type: 'text', text: answer.text });
  for (const c of answer.toolCalls) {
    content.push({ type: 'tool_use', id: c.id, name: c.name, input: parseInput(c.arguments) });
  }
  return {
    id: newMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: {
      input_tokens: answer.usage?.promptTokens ?? 0,
      output_tokens: answer.usage?.completionTokens ?? 0,
    },
  };
}

/**
 * Turns a chat SSE stream into Anthropic's events as it arrives. `translate` takes upstream
 * chunks and returns the events to write; `end` closes the open block and the message.
 */
export function createAnthropicStreamTranslator(model: string): StreamTranslator {
  return createStreamTranslator((write) => {
    let blockIndex = -1;
    let openBlock: { kind: 'text' } | { kind: 'tool'; index: number } | null = null;
    const closeBlock = () => {
      if (openBlock === null) return;
      write(sseEvent('content_block_stop', { type: 'content_block_stop', index: blockIndex }));
      openBlock = null;
    };
    return {
      open() {
        write(
          sseEvent('message_start', {
            type: 'message_start',
            message: {
              id: newMessageId(),
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 0, output_tokens: 0 },
            },
          }),
        );
        write(sseEvent('ping', { type: 'ping' }));
      },
      text(delta) {
        if (openBlock?.kind !== 'text') {
          closeBlock();
          blockIndex++;
          openBlock = { kind: 'text' };
          write(
            sseEvent('content_block_start', {
              type: 'content_block_start',
              index: blockIndex,
              content_block: { type: 'text', text: '' },
            }),
          );
        }
        write(
          sseEvent('content_block_delta', {
            type: 'content_block_delta',
            index: blockIndex,
            delta: { type: 'text_delta', text: delta },
          }),
        );
      },
      toolStart(index, call) {
        closeBlock();
        blockIndex++;
        openBlock = { kind: 'tool', index };
        write(
          sseEvent('content_block_start', {
            type: 'content_block_start',
            index: blockIndex,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          }),
        );
      },
      toolArguments(index, delta) {
        // Providers stream one call's arguments at a time; a stray fragment of another call
        // would break the client's JSON, so it is dropped.
        if (openBlock?.kind !== 'tool' || openBlock.index !== index) return;
        write(
          sseEvent('content_block_delta', {
            type: 'content_block_delta',
            index: blockIndex,
            delta: { type: 'input_json_delta', partial_json: delta },
          }),
        );
      },
      close(answer) {
        closeBlock();
        write(
          sseEvent('message_delta', {
            type: 'message_delta',
            delta: { stop_reason: stopReason(answer), stop_sequence: null },
            usage: {
              input_tokens: answer.usage?.promptTokens ?? 0,
              output_tokens: answer.usage?.completionTokens ?? 0,
            },
          }),
        );
        write(sseEvent('message_stop', { type: 'message_stop' }));
      },
    };
  });
}

/** The assistant text of an Anthropic message (pass-through recording). */
export function anthropicAnswerText(json: string): string | null {
  try {
    const message = JSON.parse(json) as { content?: Block[] };
    return Array.isArray(message.content) ? textOfBlocks(message.content) : '';
  } catch {
    return null;
  }
}

/** The assistant text of an Anthropic SSE stream, and whether it reached message_stop. */
export function readAnthropicSse(sse: string): { text: string; completed: boolean } {
  let text = '';
  let completed = false;
  for (const { data } of readSseEvents(sse)) {
    try {
      const e = JSON.parse(data) as { type?: string; delta?: { type?: string; text?: string } };
      if (e.type === 'content_block_delta' && e.delta?.type === 'text_delta') {
        text += e.delta.text ?? '';
      } else if (e.type === 'message_stop') completed = true;
    } catch {
      // not an event of the answer
    }
  }
  return { text, completed };
}

/** Anthropic's error `type` for an HTTP status (https://docs.anthropic.com/en/api/errors). */
export function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function anthropicErrorBody(status: number, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}
