import { describe, expect, it } from 'vitest';
import type { MessageContent } from '../memory/inject.ts';
import { withPlacedContents } from './placed-contents.ts';

describe('withPlacedContents', () => {
  const messages = [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'reply' },
    { role: 'user', content: [{ type: 'text', text: 'second' }] },
  ];

  it('puts each placed content in the message at its index, leaving the input as it was', () => {
    const contents = new Map<number, MessageContent>([
      [0, 'first\n\n[Memory]'],
      [
        2,
        [
          { type: 'text', text: 'second' },
          { type: 'text', text: '[Memory]' },
        ],
      ],
    ]);
    const before = structuredClone(messages);
    expect(withPlacedContents(messages, contents)).toEqual([
      { role: 'user', content: 'first\n\n[Memory]' },
      { role: 'assistant', content: 'reply' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'second' },
          { type: 'text', text: '[Memory]' },
        ],
      },
    ]);
    expect(messages).toEqual(before);
  });

  it('gives the same messages back when nothing was placed', () => {
    expect(withPlacedContents(messages, new Map())).toBe(messages);
  });
});
