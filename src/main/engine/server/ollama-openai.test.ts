import { describe, expect, it } from 'vitest';
import {
  createOllamaStreamTranslator,
  imageMimeType,
  toOpenAiChat,
  toOpenAiMessages,
} from './ollama-openai.ts';

const sse = (obj: unknown) => `data: ${JSON.stringify(obj)}\n\n`;

describe('toOpenAiMessages', () => {
  it('gives tool calls ids and answers each tool message with the oldest call of its name', () => {
    const out = toOpenAiMessages([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'a', arguments: { x: 1 } } },
          { function: { name: 'b', arguments: {} } },
          { function: { name: 'a', arguments: { x: 2 } } },
        ],
      },
      { role: 'tool', content: 'b done', tool_name: 'b' },
      { role: 'tool', content: 'a1 done', tool_name: 'a' },
      { role: 'tool', content: 'unnamed' },
    ]);
    const ids = (out[0]!.tool_calls as { id: string }[]).map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(out.slice(1).map((m) => m.tool_call_id)).toEqual([ids[1], ids[0], ids[2]]);
    expect(out[0]!.content).toBeNull();
  });
});

describe('toOpenAiChat', () => {
  it('maps options OpenAI names, drops "no limit" num_predict, keeps format as structured output', () => {
    const body = toOpenAiChat(
      {
        model: 'm',
        options: { num_predict: -1, seed: 3, stop: ['\n'], num_ctx: 4096 },
        format: { type: 'object' },
      },
      [{ role: 'user', content: 'hi' }],
    );
    expect(body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      seed: 3,
      stop: ['\n'],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object' } },
      },
    });
    expect(toOpenAiChat({ model: 'm', format: 'json', stream: false }, []).response_format).toEqual(
      { type: 'json_object' },
    );
  });
});

describe('createOllamaStreamTranslator', () => {
  it('emits a line per content delta, even when SSE events are split across chunks', () => {
    const t = createOllamaStreamTranslator('chat', 'm', 1000);
    const event = sse({ choices: [{ delta: { content: 'Hel' } }] });
    let out = t.push(event.slice(0, 10), 1001);
    expect(out).toBe('');
    out += t.push(event.slice(10), 1002);
    out += t.push(sse({ choices: [{ delta: { content: 'lo' }, finish_reason: 'stop' }] }), 1003);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.message.content)).toEqual(['Hel', 'lo']);
    expect(lines.every((l) => l.done === false)).toBe(true);
    expect(t.completed()).toBe(true);
    expect(t.text()).toBe('Hello');
    const last = JSON.parse(t.finish(1010));
    expect(last).toMatchObject({ done: true, done_reason: 'stop', message: { content: '' } });
    expect(last.total_duration).toBe(10_000_000);
    expect(last.prompt_eval_duration).toBe(2_000_000);
  });

  it('assembles tool calls streamed in pieces and sends them whole before the closing line', () => {
    const t = createOllamaStreamTranslator('chat', 'm', 0);
    t.push(
      sse({
        choices: [
          { delta: { tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a"' } }] } },
        ],
      }),
      1,
    );
    t.push(
      sse({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }] }),
      2,
    );
    t.push(sse({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }) + 'data: [DONE]\n\n', 3);
    const [calls, closing] = t
      .finish(4)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls.message.tool_calls).toEqual([{ function: { name: 'f', arguments: { a: 1 } } }]);
    expect(calls.done).toBe(false);
    expect(closing).toMatchObject({ done: true, done_reason: 'stop' });
  });

  it('has not completed when the upstream never said so', () => {
    const t = createOllamaStreamTranslator('generate', 'm', 0);
    t.push(sse({ choices: [{ text: 'x' }] }), 1);
    expect(t.completed()).toBe(false);
    expect(t.text()).toBe('x');
  });
});

describe('imageMimeType', () => {
  it('recognises JPEG, GIF and WebP by their first bytes and defaults to PNG', () => {
    expect(imageMimeType('/9j/4AAQ')).toBe('image/jpeg');
    expect(imageMimeType('R0lGODlh')).toBe('image/gif');
    expect(imageMimeType('UklGRiQA')).toBe('image/webp');
    expect(imageMimeType('iVBORw0K')).toBe('image/png');
  });
});
