import { describe, expect, it } from 'vitest';
import { applyAddition, contentHash, injectMemory, memoryAdditionFor } from './inject.ts';
import type { ChatMessageLike } from '../services.ts';

const block = '[Memory]\n## Pinned facts\n- likes tea\n[/Memory]';

describe('injectMemory', () => {
  it('appends the block to the latest user message only', () => {
    const messages: ChatMessageLike[] = [
      { role: 'system', content: 'be nice' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'what do I drink?' },
    ];
    const out = injectMemory(messages, block);
    expect(out).not.toBe(messages);
    expect(out[3]).toEqual({ role: 'user', content: `what do I drink?\n\n${block}` });
    expect(out.slice(0, 3)).toEqual(messages.slice(0, 3));
    // the input is untouched
    expect(messages[3]?.content).toBe('what do I drink?');
  });

  it('adds a trailing text part to content-part messages and keeps other fields', () => {
    const parts = [
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ];
    const messages: ChatMessageLike[] = [{ role: 'user', content: parts, name: 'bob' }];
    const out = injectMemory(messages, block);
    expect(out[0]).toEqual({
      role: 'user',
      name: 'bob',
      content: [...parts, { type: 'text', text: block }],
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

describe('memory additions', () => {
  it('puts the block after tool results, as its own part of the format', () => {
    const content = [
      { type: 'tool_result', tool_use_id: 't1', content: 'sunny' },
      { type: 'text', text: 'and tomorrow?' },
    ];
    const addition = memoryAdditionFor(content, block, 'text');
    const out = applyAddition(content, addition) as unknown[];
    expect(out.slice(0, 2)).toEqual(content);
    expect(out[2]).toEqual({ type: 'text', text: block });
    expect(memoryAdditionFor(content, block, 'input_text').added).toBe(
      JSON.stringify({ type: 'input_text', text: block }),
    );
  });

  it('re-applies exactly the same bytes', () => {
    const a = memoryAdditionFor('hello', block);
    expect(JSON.stringify(applyAddition('hello', a))).toBe(
      JSON.stringify(applyAddition('hello', a)),
    );
    expect(applyAddition('hello', a)).toBe(`hello\n\n${block}`);
  });

  it('hashes content without the cache_control marks clients move between turns', () => {
    const marked = [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }];
    const plain = [{ type: 'text', text: 'hi' }];
    expect(contentHash(marked)).toBe(contentHash(plain));
    expect(contentHash(plain)).not.toBe(contentHash([{ type: 'text', text: 'hi!' }]));
    expect(contentHash('hi')).not.toBe(contentHash(plain));
  });
});

describe('contentHash', () => {
  it('hashes a message with its private spans replaced, so no secret can be guessed back', () => {
    expect(contentHash('my pin is <private>1234</private>')).toBe(
      contentHash('my pin is <private>9876</private>'),
    );
    expect(contentHash('my pin is <private>1234</private>')).not.toBe(contentHash('my pin is'));
    expect(contentHash('hello')).not.toBe(contentHash('hullo'));
  });
});
