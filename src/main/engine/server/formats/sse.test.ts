import { describe, expect, it } from 'vitest';
import { createChatStreamReader } from './chat-stream.ts';
import { createSseReader, readSseEvents, type SseEvent } from './sse.ts';

describe('createSseReader', () => {
  it('cuts events at line ends, whatever the chunk boundaries', () => {
    const body =
      'event: message_start\r\ndata: {"a":1}\r\n\r\n: keep-alive\n\ndata: one\ndata: two\n\ndata: [DONE]\n\n';
    const whole = readSseEvents(body);
    expect(whole).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: null, data: 'one\ntwo' },
      { event: null, data: '[DONE]' },
    ]);
    for (let size = 1; size <= 7; size++) {
      const events: SseEvent[] = [];
      const reader = createSseReader((e) => events.push(e));
      for (let i = 0; i < body.length; i += size) reader.push(body.slice(i, i + size));
      reader.end();
      expect(events, `chunks of ${size}`).toEqual(whole);
    }
  });

  it('counts a last event without its blank line', () => {
    expect(readSseEvents('data: x')).toEqual([{ event: null, data: 'x' }]);
  });
});

describe('createChatStreamReader', () => {
  it('keeps multi-byte characters split across chunks whole', () => {
    const text: string[] = [];
    const reader = createChatStreamReader({
      text: (d) => text.push(d),
      toolStart: () => {},
      toolArguments: () => {},
    });
    const bytes = Buffer.from(
      `data: ${JSON.stringify({ choices: [{ delta: { content: 'héllo 🐝' } }] })}\n\ndata: [DONE]\n\n`,
    );
    for (let i = 0; i < bytes.length; i += 3) reader.push(bytes.subarray(i, i + 3));
    expect(reader.end().text).toBe('héllo 🐝');
    expect(text.join('')).toBe('héllo 🐝');
    expect(reader.completed()).toBe(true);
  });
});
