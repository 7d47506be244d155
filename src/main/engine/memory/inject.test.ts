import { describe, expect, it } from 'vitest';
import { injectMemory } from './inject.ts';
import type { ChatMessageLike } from '../services.ts';

const block = '[Memory]\nCurrent date: 2025-01-02\n## Pinned facts\n- likes tea\n[/Memory]';

describe('injectMemory', () => {
  it('prepends the block to the latest user message only', () => {
    const messages: ChatMessageLike[] = [
      { role: 'system', content: 'be nice' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'what do I drink?' },
    ];
    const out = injectMemory(messages, block);
    expect(out).not.toBe(messages);
    expect(out[3]).toEqual({ role: 'user', content: `${block}\n\nwhat do I drink?` });
    expect(out.slice(0, 3)).toEqual(messages.slice(0, 3));
    // the input is untouched
    expect(messages[3]?.content).toBe('what do I drink?');
  });

  it('uses the latest user message even when an assistant or tool message follows it', () => {
    const messages: ChatMessageLike[] = [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't' }] },
      { role: 'tool', content: 'result', tool_call_id: 't' },
    ];
    const out = injectMemory(messages, block);
    expect(out[0]?.content).toBe('a');
    expect(out[1]?.content).toBe(`${block}\n\nb`);
    expect(out[2]).toBe(messages[2]);
    expect(out[3]).toBe(messages[3]);
  });

  it('adds a leading text part to content-part messages and keeps other fields', () => {
    const parts = [
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ];
    const messages: ChatMessageLike[] = [{ role: 'user', content: parts, name: 'bob' }];
    const out = injectMemory(messages, block);
    expect(out[0]).toEqual({
      role: 'user',
      name: 'bob',
      content: [{ type: 'text', text: block }, ...parts],
    });
    expect(parts).toHaveLength(2);
  });

  it('returns the messages unchanged for an empty block or when there is no user message', () => {
    const messages: ChatMessageLike[] = [{ role: 'user', content: 'hi' }];
    expect(injectMemory(messages, '')).toBe(messages);
    const sys: ChatMessageLike[] = [{ role: 'system', content: 'x' }];
    expect(injectMemory(sys, block)).toBe(sys);
  });

  it('handles empty and null user content', () => {
    expect(injectMemory([{ role: 'user', content: '' }], block)[0]?.content).toBe(block);
    expect(injectMemory([{ role: 'user', content: null }], block)[0]?.content).toBe(block);
  });
});
