import { createSseReader } from './sse.ts';

// The OpenAI chat-completions answer, read into format-neutral pieces (text, tool calls, why it
// stopped, token counts) for the translators that show it to an Anthropic or a Responses client.

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatAnswer {
  text: string;
  toolCalls: ChatToolCall[];
  /** The upstream's finish_reason (`stop`, `length`, `tool_calls`, ...), or null. */
  finishReason: string | null;
  usage: ChatUsage | null;
}

interface ChatToolCallJson {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface ChatUsageJson {
  prompt_tokens?: number;
  completion_tokens?: number;
}

function usageOf(u: ChatUsageJson | undefined | null): ChatUsage | null {
  if (!u || typeof u !== 'object') return null;
  return {
    promptTokens: typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0,
    completionTokens: typeof u.completion_tokens === 'number' ? u.completion_tokens : 0,
  };
}

/** A whole (non-streamed) chat completion. Throws when the body is not one. */
export function readChatCompletion(json: string): ChatAnswer {
  const body = JSON.parse(json) as {
    choices?: {
      message?: { content?: unknown; tool_calls?: ChatToolCallJson[] };
      finish_reason?: string | null;
    }[];
    usage?: ChatUsageJson;
  };
  const choice = body.choices?.[0];
  if (!choice) throw new Error('no choices');
  const content = choice.message?.content;
  return {
    text: typeof content === 'string' ? content : '',
    toolCalls: (choice.message?.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${i}`,
      name: c.function?.name ?? '',
      arguments: c.function?.arguments ?? '',
    })),
    finishReason: choice.finish_reason ?? null,
    usage: usageOf(body.usage),
  };
}

/** What a translator does with each piece of a streamed answer, in arrival order. */
export interface ChatStreamSink {
  text(delta: string): void;
  toolStart(index: number, call: { id: string; name: string }): void;
  toolArguments(index: number, delta: string): void;
}

/** Reads a chat SSE stream chunk by chunk; the whole answer is kept for the end. */
export function createChatStreamReader(sink: ChatStreamSink): {
  push(chunk: Buffer): void;
  end(): ChatAnswer;
  /** Whether the upstream said it was done (finish_reason or [DONE]). */
  completed(): boolean;
} {
  const decoder = new TextDecoder();
  const answer: ChatAnswer = { text: '', toolCalls: [], finishReason: null, usage: null };
  const started = new Map<number, ChatToolCall>();
  let done = false;
  const reader = createSseReader(({ data }) => {
    if (data === '[DONE]') {
      done = true;
      return;
    }
    let chunk: {
      choices?: {
        delta?: { content?: unknown; tool_calls?: ChatToolCallJson[] };
        finish_reason?: string | null;
      }[];
      usage?: ChatUsageJson | null;
    };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch {
      return; // a keep-alive or comment of the provider: not part of the answer
    }
    const usage = usageOf(chunk.usage);
    if (usage) answer.usage = usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (typeof delta?.content === 'string' && delta.content !== '') {
      answer.text += delta.content;
      sink.text(delta.content);
    }
    for (const [position, call] of (delta?.tool_calls ?? []).entries()) {
      const index = typeof call.index === 'number' ? call.index : position;
      let known = started.get(index);
      if (!known) {
        known = {
          id: call.id ?? `call_${index}`,
          name: call.function?.name ?? '',
          arguments: '',
        };
        started.set(index, known);
        answer.toolCalls.push(known);
        sink.toolStart(index, { id: known.id, name: known.name });
      }
      const args = call.function?.arguments;
      if (typeof args === 'string' && args !== '') {
        known.arguments += args;
        sink.toolArguments(index, args);
      }
    }
    if (choice.finish_reason) {
      answer.finishReason = choice.finish_reason;
      done = true;
    }
  });
  return {
    push: (chunk) => reader.push(decoder.decode(chunk, { stream: true })),
    end() {
      reader.push(decoder.decode());
      reader.end();
      return answer;
    },
    completed: () => done,
  };
}

/** A streamed answer shown in another format: upstream chunks in, the client's events out. */
export interface StreamTranslator {
  translate(chunk: Buffer): string;
  /** The closing events, once the upstream ended properly. */
  end(): string;
}

/** What a format writes for a streamed answer: its opening events, each piece, its close. */
export interface TranslatedEvents extends ChatStreamSink {
  /** The events that open the answer, written once before anything else. */
  open(): void;
  /** The events that close the answer, given the whole of it. */
  close(answer: ChatAnswer): void;
}

/**
 * Drives a format's events over a chat stream. `eventsOf` gets `write`, which appends to what
 * the client receives next; whatever was written is handed out after each chunk and at the end.
 */
export function createStreamTranslator(
  eventsOf: (write: (events: string) => void) => TranslatedEvents,
): StreamTranslator {
  let out = '';
  let opened = false;
  const events = eventsOf((written) => {
    out += written;
  });
  const reader = createChatStreamReader(events);
  const open = () => {
    if (opened) return;
    opened = true;
    events.open();
  };
  const take = () => {
    const written = out;
    out = '';
    return written;
  };
  return {
    translate(chunk) {
      open();
      reader.push(chunk);
      return take();
    },
    end() {
      open();
      events.close(reader.end());
      return take();
    },
  };
}
