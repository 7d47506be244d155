// Ollama's native API spoken to an OpenAI-compatible upstream (DESIGN §9, issue 13): used when
// no Ollama upstream is set, so Open WebUI or Continue can run on any OpenAI-compatible model
// through Cairn. Requests are mapped to /chat/completions (or /completions for raw prompts and
// fill-in-the-middle), answers back to Ollama's objects: NDJSON lines `done:false` while
// streaming, then one `done:true` line with `done_reason` and token counts.
// Field meanings: https://github.com/ollama/ollama/blob/main/docs/api.md and
// https://platform.openai.com/docs/api-reference/chat
import type {
  OllamaChatRequest,
  OllamaGenerateRequest,
  OllamaMessage,
  OllamaToolCall,
} from '../../../shared/ollama.ts';

type Json = Record<string, unknown>;

const NS_PER_MS = 1_000_000;

/** The image type of a base64 picture, from its first bytes (Ollama sends no MIME type). */
export function imageMimeType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

function imageParts(images: readonly string[] | undefined): Json[] {
  return (images ?? []).map((b64) => ({
    type: 'image_url',
    image_url: { url: `data:${imageMimeType(b64)};base64,${b64}` },
  }));
}

/** Text alone stays a string; with images it becomes OpenAI content parts. */
function openAiContent(text: string, images: readonly string[] | undefined): string | Json[] {
  if (!images || images.length === 0) return text;
  return [...(text !== '' ? [{ type: 'text', text }] : []), ...imageParts(images)];
}

/**
 * Ollama's messages as OpenAI's. Tool calls get ids (Ollama has none) and each `tool` message
 * answers the oldest unanswered call of its `tool_name` (or, without a name, the oldest one).
 */
export function toOpenAiMessages(messages: readonly OllamaMessage[]): Json[] {
  const unanswered: { id: string; name: string }[] = [];
  let callCount = 0;
  return messages.map((m) => {
    const text = m.content ?? '';
    if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) {
      const toolCalls = m.tool_calls.map((call) => {
        const id = `call_${callCount++}`;
        unanswered.push({ id, name: call.function.name });
        return {
          id,
          type: 'function',
          function: {
            name: call.function.name,
            arguments: JSON.stringify(call.function.arguments ?? {}),
          },
        };
      });
      return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
    }
    if (m.role === 'tool') {
      let at = unanswered.findIndex((c) => c.name === m.tool_name);
      if (at === -1) at = unanswered.length > 0 ? 0 : -1;
      const [call] = at === -1 ? [] : unanswered.splice(at, 1);
      return {
        role: 'tool',
        tool_call_id: call?.id ?? `call_${m.tool_name ?? 'tool'}`,
        content: text,
      };
    }
    return { role: m.role, content: openAiContent(text, m.images) };
  });
}

/** `format: "json"` or a JSON schema, as OpenAI's structured output. */
function responseFormat(format: OllamaChatRequest['format']): Json | undefined {
  if (format === undefined || format === '') return undefined;
  if (format === 'json') return { type: 'json_object' };
  if (typeof format === 'object') {
    return { type: 'json_schema', json_schema: { name: 'response', schema: format } };
  }
  return undefined;
}

/** The Ollama options OpenAI has a name for; the others have no OpenAI equivalent. */
function samplingFields(options: OllamaChatRequest['options']): Json {
  const out: Json = {};
  if (!options) return out;
  if (options.temperature !== undefined) out.temperature = options.temperature;
  if (options.top_p !== undefined) out.top_p = options.top_p;
  if (options.seed !== undefined) out.seed = options.seed;
  if (options.stop !== undefined) out.stop = options.stop;
  // Ollama's -1 / -2 mean "no limit" / "fill the context": OpenAI has no such value.
  if (options.num_predict !== undefined && options.num_predict > 0) {
    out.max_tokens = options.num_predict;
  }
  if (options.frequency_penalty !== undefined) out.frequency_penalty = options.frequency_penalty;
  if (options.presence_penalty !== undefined) out.presence_penalty = options.presence_penalty;
  return out;
}

/** Whether the client streams (Ollama streams unless `stream: false`). */
export function wantsStream(request: { stream?: boolean }): boolean {
  return request.stream !== false;
}

function streamFields(stream: boolean): Json {
  // include_usage: the final chunk carries the token counts Ollama reports as eval counts.
  return stream ? { stream: true, stream_options: { include_usage: true } } : { stream: false };
}

/** An /api/chat request as a /chat/completions body. */
export function toOpenAiChat(request: OllamaChatRequest, messages: readonly OllamaMessage[]): Json {
  const body: Json = {
    model: request.model,
    messages: toOpenAiMessages(messages),
    ...streamFields(wantsStream(request)),
    ...samplingFields(request.options),
  };
  const format = responseFormat(request.format);
  if (format) body.response_format = format;
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (typeof request.think === 'string') body.reasoning_effort = request.think;
  return body;
}

export interface UpstreamCall {
  path: '/chat/completions' | '/completions';
  body: Json;
}

/**
 * An /api/generate request for the OpenAI-compatible upstream. A raw prompt or one with a
 * suffix (autocomplete, fill-in-the-middle) goes to /completions as it is: a chat template
 * would wrap it in turns the model was not asked for. Anything else is one user turn.
 */
export function toOpenAiGenerate(request: OllamaGenerateRequest): UpstreamCall {
  const common = { model: request.model, ...streamFields(wantsStream(request)) };
  const sampling = samplingFields(request.options);
  if (request.raw === true || (request.suffix !== undefined && request.suffix !== '')) {
    const body: Json = { ...common, prompt: request.prompt ?? '', ...sampling };
    if (request.suffix) body.suffix = request.suffix;
    return { path: '/completions', body };
  }
  const messages: Json[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  messages.push({ role: 'user', content: openAiContent(request.prompt ?? '', request.images) });
  const body: Json = { ...common, messages, ...sampling };
  const format = responseFormat(request.format);
  if (format) body.response_format = format;
  return { path: '/chat/completions', body };
}

/** OpenAI's finish_reason in Ollama's words (Ollama ends tool calls with "stop" too). */
export function doneReason(finish: unknown): string {
  return finish === 'length' ? 'length' : 'stop';
}

interface OpenAiToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** OpenAI's tool calls (arguments as JSON text) as Ollama's (arguments as an object). */
function toOllamaToolCalls(
  calls: readonly { name: string; arguments: string }[],
): OllamaToolCall[] {
  return calls.map((c) => {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(c.arguments || '{}');
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        args = parsed as Record<string, unknown>;
      }
    } catch {
      // A model that wrote broken JSON: the call is kept, with no arguments.
    }
    return { function: { name: c.name, arguments: args } };
  });
}

export type OllamaKind = 'chat' | 'generate';

export interface Timing {
  /** When the request arrived (ms). */
  startedAt: number;
  /** When the first token arrived (ms); the end when none did. */
  firstTokenAt: number | null;
  endedAt: number;
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** Ollama's closing statistics (durations in nanoseconds). */
function finalStats(timing: Timing, usage: Usage | null): Json {
  const first = timing.firstTokenAt ?? timing.endedAt;
  return {
    total_duration: Math.max(0, timing.endedAt - timing.startedAt) * NS_PER_MS,
    load_duration: 0,
    prompt_eval_count: usage?.prompt_tokens ?? 0,
    prompt_eval_duration: Math.max(0, first - timing.startedAt) * NS_PER_MS,
    eval_count: usage?.completion_tokens ?? 0,
    eval_duration: Math.max(0, timing.endedAt - first) * NS_PER_MS,
  };
}

/** One Ollama object: chat carries `message`, generate carries `response`. */
function ollamaObject(
  kind: OllamaKind,
  model: string,
  at: number,
  text: string,
  toolCalls: OllamaToolCall[] | null,
  done: boolean,
): Json {
  const head: Json = { model, created_at: new Date(at).toISOString() };
  if (kind === 'chat') {
    const message: Json = { role: 'assistant', content: text };
    if (toolCalls && toolCalls.length > 0) message.tool_calls = toolCalls;
    return { ...head, message, done };
  }
  return { ...head, response: text, done };
}

/** The `done:true` answer to a load (`done_reason: "load"`) or unload request. */
export function loadAnswer(
  kind: OllamaKind,
  model: string,
  at: number,
  reason: 'load' | 'unload',
): Json {
  return { ...ollamaObject(kind, model, at, '', null, true), done_reason: reason };
}

interface OpenAiCompletion {
  model?: unknown;
  choices?: {
    message?: { content?: unknown; tool_calls?: OpenAiToolCallDelta[] };
    text?: unknown;
    finish_reason?: unknown;
  }[];
  usage?: Usage;
}

/** A whole (non-streamed) OpenAI answer as Ollama's single `done:true` object. */
export function fromOpenAiCompletion(
  kind: OllamaKind,
  model: string,
  completion: OpenAiCompletion,
  timing: Timing,
): Json {
  const choice = completion.choices?.[0];
  const content = choice?.message?.content ?? choice?.text;
  const calls = (choice?.message?.tool_calls ?? []).map((c) => ({
    name: c.function?.name ?? '',
    arguments: c.function?.arguments ?? '',
  }));
  return {
    ...ollamaObject(
      kind,
      model,
      timing.endedAt,
      typeof content === 'string' ? content : '',
      toOllamaToolCalls(calls),
      true,
    ),
    done_reason: doneReason(choice?.finish_reason),
    ...finalStats(timing, completion.usage ?? null),
  };
}

export interface OllamaStreamTranslator {
  /** Feeds raw SSE text; returns the NDJSON lines (each ending in \n) to write now. */
  push(sse: string, now: number): string;
  /** The closing `done:true` line (with any tool calls before it). */
  finish(now: number): string;
  /** The whole answer as one `done:true` object (a stream the client did not ask for). */
  whole(now: number): Record<string, unknown>;
  /** Whether the upstream said the answer is complete (finish_reason or [DONE]). */
  completed(): boolean;
  /** The assistant's text so far. */
  text(): string;
}

/**
 * Turns an OpenAI SSE stream into Ollama NDJSON as it arrives: one `done:false` object per
 * content delta; tool calls (streamed by OpenAI in pieces) are assembled and sent whole in
 * one object before the closing one, which carries `done_reason` and the token counts.
 */
export function createOllamaStreamTranslator(
  kind: OllamaKind,
  model: string,
  startedAt: number,
): OllamaStreamTranslator {
  let pending = '';
  let text = '';
  let finish: unknown = null;
  let sawDone = false;
  let usage: Usage | null = null;
  let firstTokenAt: number | null = null;
  const calls: { name: string; arguments: string }[] = [];

  const line = (obj: Json) => JSON.stringify(obj) + '\n';

  const onEvent = (data: string, now: number): string => {
    if (data === '[DONE]') {
      sawDone = true;
      return '';
    }
    let chunk: {
      choices?: {
        delta?: { content?: unknown; tool_calls?: OpenAiToolCallDelta[] };
        text?: unknown;
        finish_reason?: unknown;
      }[];
      usage?: Usage | null;
    };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch {
      return ''; // a provider's keep-alive or comment
    }
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return '';
    if (choice.finish_reason) finish = choice.finish_reason;
    for (const delta of choice.delta?.tool_calls ?? []) {
      const i = delta.index ?? calls.length;
      calls[i] ??= { name: '', arguments: '' };
      if (delta.function?.name) calls[i].name += delta.function.name;
      if (delta.function?.arguments) calls[i].arguments += delta.function.arguments;
    }
    const piece = choice.delta?.content ?? choice.text;
    if (typeof piece !== 'string' || piece === '') return '';
    firstTokenAt ??= now;
    text += piece;
    return line(ollamaObject(kind, model, now, piece, null, false));
  };

  /** A last event without its line end. */
  const flush = (now: number) => {
    if (pending.startsWith('data:')) onEvent(pending.slice(5).trim(), now);
    pending = '';
  };
  const assembledToolCalls = () => toOllamaToolCalls(calls.filter((c) => c !== undefined));
  const closing = (now: number, content: string): Json => ({
    ...ollamaObject(kind, model, now, content, null, true),
    done_reason: doneReason(finish),
    ...finalStats({ startedAt, firstTokenAt, endedAt: now }, usage),
  });

  return {
    push(sse, now) {
      pending += sse;
      let out = '';
      let end: number;
      // SSE events end with a blank line; a data line is enough to act on.
      while ((end = pending.indexOf('\n')) !== -1) {
        const raw = pending.slice(0, end).replace(/\r$/, '');
        pending = pending.slice(end + 1);
        if (raw.startsWith('data:')) out += onEvent(raw.slice(5).trim(), now);
      }
      return out;
    },
    finish(now) {
      flush(now);
      let out = '';
      const toolCalls = assembledToolCalls();
      if (kind === 'chat' && toolCalls.length > 0) {
        out += line(ollamaObject(kind, model, now, '', toolCalls, false));
      }
      out += line(closing(now, ''));
      return out;
    },
    whole(now) {
      flush(now);
      const obj = closing(now, text);
      const toolCalls = assembledToolCalls();
      if (kind === 'chat' && toolCalls.length > 0) {
        (obj.message as Json).tool_calls = toolCalls;
      }
      return obj;
    },
    completed: () => sawDone || finish !== null,
    text: () => text,
  };
}

interface OpenAiModelList {
  data?: { id?: unknown; created?: unknown; owned_by?: unknown }[];
}

const EMPTY_DETAILS = {
  parent_model: '',
  format: '',
  family: '',
  families: null,
  parameter_size: '',
  quantization_level: '',
};

/** GET /v1/models as Ollama's /api/tags (sizes and digests are not known upstream). */
export function tagsFromOpenAiModels(list: OpenAiModelList): Json {
  const models = (list.data ?? [])
    .filter((m) => typeof m.id === 'string' && m.id !== '')
    .map((m) => {
      const created = typeof m.created === 'number' && m.created > 0 ? m.created * 1000 : 0;
      return {
        name: m.id,
        model: m.id,
        modified_at: new Date(created).toISOString(),
        size: 0,
        digest: '',
        details: EMPTY_DETAILS,
      };
    });
  return { models };
}

/** /api/show for a model the upstream lists: what is known of it (nothing about its files). */
export function showFromOpenAiModel(list: OpenAiModelList, name: string): Json | null {
  const entry = (list.data ?? []).find((m) => m.id === name);
  if (!entry) return null;
  const created = typeof entry.created === 'number' && entry.created > 0 ? entry.created * 1000 : 0;
  return {
    license: '',
    modelfile: '',
    parameters: '',
    template: '',
    details: EMPTY_DETAILS,
    model_info: {},
    capabilities: ['completion', 'tools'],
    modified_at: new Date(created).toISOString(),
  };
}
