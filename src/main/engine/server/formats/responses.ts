import { randomBytes } from 'node:crypto';
import type { ResponsesRequest } from '../../../../shared/wire-formats.ts';
import type { ChatMessageLike } from '../../services.ts';
import { type ChatAnswer, createStreamTranslator, type StreamTranslator } from './chat-stream.ts';
import { readSseEvents, sseEvent } from './sse.ts';

// OpenAI Responses <-> chat completions, for a Responses client (Codex CLI) whose upstream
// speaks only chat completions (DESIGN §9). Wire format:
// https://platform.openai.com/docs/api-reference/responses and .../responses-streaming:
// response.created first, response.in_progress, then per output item output_item.added,
// (content_part.added, output_text.delta..., output_text.done, content_part.done) or
// function_call_arguments.delta.../.done, output_item.done, and response.completed last.

type Item = Record<string, unknown>;
type Part = { type?: string; text?: unknown; image_url?: unknown; [k: string]: unknown };

export const newResponseId = (): string => `resp_${randomBytes(12).toString('hex')}`;
const newItemId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Whether an input item is a message of this role (`type: message` may be left out). */
export function isRoleItem(item: Item, role: string): boolean {
  return (item.type === undefined || item.type === 'message') && item.role === role;
}

/** The text of a message item's content (its input_text / output_text / text parts). */
export function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Part[])
    .filter((p) => typeof p.text === 'string' && p.type !== 'refusal')
    .map((p) => p.text as string)
    .join('\n');
}

function chatContent(content: unknown): ChatMessageLike['content'] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: { type: string; text?: string; image_url?: { url: string } }[] = [];
  for (const p of content as Part[]) {
    if (typeof p.text === 'string') parts.push({ type: 'text', text: p.text });
    else if (p.type === 'input_image' && typeof p.image_url === 'string') {
      parts.push({ type: 'image_url', image_url: { url: p.image_url } });
    }
  }
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => p.text).join('\n\n');
  return parts;
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : itemText(output);
}

/** The chat messages of a request's input (instructions not included). */
export function inputToChatMessages(input: ResponsesRequest['input']): ChatMessageLike[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const out: ChatMessageLike[] = [];
  for (const item of input as Item[]) {
    if (item.type === 'function_call') {
      const call = {
        id: String(item.call_id),
        type: 'function',
        function: { name: String(item.name), arguments: String(item.arguments ?? '') },
      };
      const last = out.at(-1);
      // Calls of one turn go into one assistant message (with its text, when it had some).
      if (last?.role === 'assistant') {
        last.tool_calls = [...((last.tool_calls as unknown[] | undefined) ?? []), call];
      } else {
        out.push({ role: 'assistant', content: null, tool_calls: [call] });
      }
    } else if (item.type === 'function_call_output') {
      out.push({
        role: 'tool',
        tool_call_id: String(item.call_id),
        content: outputText(item.output),
      });
    } else if (item.type === undefined || item.type === 'message') {
      const role = item.role === 'developer' ? 'system' : String(item.role);
      out.push({ role, content: chatContent(item.content) });
    }
    // reasoning and built-in tool items have no chat-completions form: left out
  }
  return out;
}

/** The chat-completions request; `history` are earlier turns (previous_response_id). */
export function responsesToChat(
  body: ResponsesRequest,
  history: ChatMessageLike[],
  input: ChatMessageLike[],
): Record<string, unknown> {
  const messages: ChatMessageLike[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  messages.push(...history, ...input);
  const chat: Record<string, unknown> = { model: body.model, messages };
  if (typeof body.max_output_tokens === 'number') chat.max_tokens = body.max_output_tokens;
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  if (typeof body.top_p === 'number') chat.top_p = body.top_p;
  const tools = (Array.isArray(body.tools) ? (body.tools as Item[]) : []).filter(
    (t) => t.type === 'function',
  );
  if (tools.length > 0) {
    chat.tools = tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
      },
    }));
    const choice = body.tool_choice as string | { type?: string; name?: string } | undefined;
    if (typeof choice === 'string') chat.tool_choice = choice;
    else if (choice?.type === 'function') {
      chat.tool_choice = { type: 'function', function: { name: choice.name } };
    }
  }
  const format = (body.text as { format?: Item } | undefined)?.format;
  if (format?.type === 'json_schema') {
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    };
  } else if (format?.type === 'json_object') chat.response_format = { type: 'json_object' };
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

/** The assistant message(s) of an answer, as chat messages (kept for previous_response_id). */
export function answerToChatMessages(answer: ChatAnswer): ChatMessageLike[] {
  const message: ChatMessageLike = {
    role: 'assistant',
    content: answer.text === '' && answer.toolCalls.length > 0 ? null : answer.text,
  };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return [message];
}

export interface ResponseFrame {
  id: string;
  model: string;
  createdAt: number;
  body: ResponsesRequest;
}

function usageOf(answer: ChatAnswer | null) {
  const input = answer?.usage?.promptTokens ?? 0;
  const output = answer?.usage?.completionTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** A response object; `output` and `answer` are null while it is in progress. */
function responseObject(frame: ResponseFrame, output: Item[], answer: ChatAnswer | null): Item {
  const incomplete = answer?.finishReason === 'length';
  const body = frame.body;
  return {
    id: frame.id,
    object: 'response',
    created_at: Math.floor(frame.createdAt / 1000),
    status: answer === null ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: frame.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    store: body.store ?? true,
    temperature: body.temperature ?? null,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? null,
    usage: answer === null ? null : usageOf(answer),
    metadata: body.metadata ?? {},
  };
}

function messageItem(id: string, text: string, status: string): Item {
  return {
    type: 'message',
    id,
    status,
    role: 'assistant',
    content:
      status === 'in_progress'
        ? []
        : [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

function functionCallItem(
  id: string,
  call: { id: string; name: string; arguments: string },
  status: string,
): Item {
  return {
    type: 'function_call',
    id,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
    status,
  };
}

/** The Responses answer for a whole chat answer. */
export function chatAnswerToResponse(frame: ResponseFrame, answer: ChatAnswer): Item {
  const output: Item[] = [];
  if (answer.text !== '') output.push(messageItem(newItemId('msg'), answer.text, 'completed'));
  for (const c of answer.toolCalls) output.push(functionCallItem(newItemId('fc'), c, 'completed'));
  return responseObject(frame, output, answer);
}

/**
 * Turns a chat SSE stream into Responses events as it arrives. `onComplete` runs before
 * response.completed is written (the chain is stored before the client can continue it).
 */
export function createResponsesStreamTranslator(
  frame: ResponseFrame,
  onComplete: (answer: ChatAnswer) => void,
): StreamTranslator {
  return createStreamTranslator((write) => {
    let sequence = 0;
    const output: Item[] = [];
    let current:
      | { kind: 'text'; id: string; text: string }
      | {
          kind: 'tool';
          id: string;
          index: number;
          call: { id: string; name: string; arguments: string };
        }
      | null = null;
    const emit = (type: string, fields: Item) => {
      write(sseEvent(type, { type, sequence_number: sequence++, ...fields }));
    };
    const closeItem = () => {
      if (current === null) return;
      const outputIndex = output.length;
      if (current.kind === 'text') {
        const part = { type: 'output_text', text: current.text, annotations: [], logprobs: [] };
        emit('response.output_text.done', {
          item_id: current.id,
          output_index: outputIndex,
          content_index: 0,
          text: current.text,
          logprobs: [],
        });
        emit('response.content_part.done', {
          item_id: current.id,
          output_index: outputIndex,
          content_index: 0,
          part,
        });
        const item = messageItem(current.id, current.text, 'completed');
        emit('response.output_item.done', { output_index: outputIndex, item });
        output.push(item);
      } else {
        emit('response.function_call_arguments.done', {
          item_id: current.id,
          output_index: outputIndex,
          name: current.call.name,
          arguments: current.call.arguments,
        });
        const item = functionCallItem(current.id, current.call, 'completed');
        emit('response.output_item.done', { output_index: outputIndex, item });
        output.push(item);
      }
      current = null;
    };
    return {
      open() {
        emit('response.created', { response: responseObject(frame, [], null) });
        emit('response.in_progress', { response: responseObject(frame, [], null) });
      },
      text(delta) {
        if (current?.kind !== 'text') {
          closeItem();
          current = { kind: 'text', id: newItemId('msg'), text: '' };
          emit('response.output_item.added', {
            output_index: output.length,
            item: messageItem(current.id, '', 'in_progress'),
          });
          emit('response.content_part.added', {
            item_id: current.id,
            output_index: output.length,
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
          });
        }
        current.text += delta;
        emit('response.output_text.delta', {
          item_id: current.id,
          output_index: output.length,
          content_index: 0,
          delta,
          logprobs: [],
        });
      },
      toolStart(index, call) {
        closeItem();
        current = { kind: 'tool', id: newItemId('fc'), index, call: { ...call, arguments: '' } };
        emit('response.output_item.added', {
          output_index: output.length,
          item: functionCallItem(current.id, current.call, 'in_progress'),
        });
      },
      toolArguments(index, delta) {
        if (current?.kind !== 'tool' || current.index !== index) return;
        current.call.arguments += delta;
        emit('response.function_call_arguments.delta', {
          item_id: current.id,
          output_index: output.length,
          delta,
        });
      },
      close(answer) {
        closeItem();
        onComplete(answer);
        const response = responseObject(frame, output, answer);
        emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
          response,
        });
      },
    };
  });
}

/** The assistant text of a Responses answer object (pass-through recording). */
export function responseAnswerText(json: string): string | null {
  try {
    return outputItemsText((JSON.parse(json) as { output?: Item[] }).output);
  } catch {
    return null;
  }
}

function outputItemsText(output: Item[] | undefined): string {
  return (output ?? [])
    .filter((i) => i.type === 'message')
    .map((i) => itemText(i.content))
    .join('\n');
}

/** The assistant text of a Responses stream, and whether it completed. */
export function readResponsesSse(sse: string): { text: string; completed: boolean } {
  for (const { data } of readSseEvents(sse)) {
    try {
      const e = JSON.parse(data) as { type?: string; response?: { output?: Item[] } };
      if (e.type === 'response.completed') {
        return { text: outputItemsText(e.response?.output), completed: true };
      }
    } catch {
      // not an event of the answer
    }
  }
  return { text: '', completed: false };
}

/** A Responses stream's error event. */
export function responsesErrorEvent(code: string, message: string): string {
  return sseEvent('error', { type: 'error', code, message, param: null, sequence_number: 0 });
}
