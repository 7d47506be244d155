import { describe, expect, it } from 'vitest';
import { parseChatGptExport } from './chatgpt.ts';

const NOW = Date.UTC(2025, 0, 1);
const T = 1_600_000_000; // 2020-09-13

function message(role: string, text: string, at: number | null, extra: object = {}) {
  return {
    author: { role },
    create_time: at,
    content: { content_type: 'text', parts: [text] },
    ...extra,
  };
}

describe('parseChatGptExport', () => {
  it('follows the newest child from the root when current_node is missing', () => {
    const [c] = parseChatGptExport(
      [
        {
          id: 'c1',
          create_time: T,
          mapping: {
            r: { message: null, parent: null, children: ['u'] },
            u: { message: message('user', 'question', T + 1), parent: 'r', children: ['a1', 'a2'] },
            a1: { message: message('assistant', 'old answer', T + 2), parent: 'u', children: [] },
            a2: { message: message('assistant', 'new answer', T + 3), parent: 'u', children: [] },
          },
        },
      ],
      NOW,
    );
    expect(c!.conversationId).toBe('chatgpt:c1');
    expect(c!.messages.map((m) => m.content)).toEqual(['question', 'new answer']);
  });

  it('gives a message without a time the time of the one before it', () => {
    const [c] = parseChatGptExport(
      [
        {
          id: 'c2',
          create_time: T,
          current_node: 'a',
          mapping: {
            u: { message: message('user', 'hi', T + 10), parent: null },
            a: { message: message('assistant', 'hello', null), parent: 'u' },
          },
        },
      ],
      NOW,
    );
    expect(c!.messages.map((m) => m.at)).toEqual([(T + 10) * 1000, (T + 10) * 1000]);
  });

  it('refuses a parent chain that loops, naming the conversation', () => {
    expect(() =>
      parseChatGptExport(
        [
          { create_time: T, mapping: { c1: { message: null, parent: 'c1' } } },
          {
            create_time: T,
            current_node: 'x',
            mapping: {
              x: { message: message('user', 'a', T), parent: 'y' },
              y: { message: message('assistant', 'b', T), parent: 'x' },
            },
          },
        ],
        NOW,
      ),
    ).toThrow(/data\.1\.mapping: the parent of "x" loops/);
  });

  it('refuses a number far beyond any date with a 400, not a crash', () => {
    expect(() => parseChatGptExport([{ create_time: 1e20, mapping: {} }], NOW)).toThrow(
      /data\.0\.create_time/,
    );
  });

  it('derives a stable id for a conversation without one', () => {
    const doc = [
      {
        create_time: T,
        current_node: 'u',
        mapping: { u: { message: message('user', 'same text', T), parent: null } },
      },
    ];
    const [a] = parseChatGptExport(doc, NOW);
    const [b] = parseChatGptExport(structuredClone(doc), NOW);
    expect(a!.conversationId).toMatch(/^chatgpt:[0-9a-f]{32}$/);
    expect(b!.conversationId).toBe(a!.conversationId);
  });
});
