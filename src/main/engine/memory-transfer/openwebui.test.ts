import { describe, expect, it } from 'vitest';
import { parseOpenWebUiExport } from './openwebui.ts';

const NOW = Date.UTC(2025, 0, 1);

describe('parseOpenWebUiExport', () => {
  it('reads message times in seconds and chat.timestamp in milliseconds', () => {
    const [c] = parseOpenWebUiExport(
      [
        {
          id: 'w1',
          chat: {
            timestamp: 1_700_000_000_123,
            messages: [
              { role: 'user', content: 'no time of its own' },
              { role: 'assistant', content: 'answer', timestamp: 1_700_000_100 },
            ],
          },
        },
      ],
      NOW,
    );
    expect(c!.messages.map((m) => m.at)).toEqual([1_700_000_000_123, 1_700_000_100_000]);
  });

  it('takes every history message in time order when no currentId is recorded', () => {
    const [c] = parseOpenWebUiExport(
      [
        {
          id: 'w2',
          created_at: 1_700_000_000,
          chat: {
            history: {
              messages: {
                b: { role: 'assistant', content: 'second', timestamp: 1_700_000_010 },
                a: { role: 'user', content: 'first', timestamp: 1_700_000_000 },
              },
            },
          },
        },
      ],
      NOW,
    );
    expect(c!.messages.map((m) => m.content)).toEqual(['first', 'second']);
  });

  it('refuses a currentId that is not in the history', () => {
    expect(() =>
      parseOpenWebUiExport(
        [{ created_at: 1_700_000_000, chat: { history: { messages: {}, currentId: 'gone' } } }],
        NOW,
      ),
    ).toThrow(/data\.0\.chat\.history\.messages: "gone" is missing/);
  });

  it('refuses a chat with no date at all', () => {
    expect(() => parseOpenWebUiExport([{ chat: { messages: [] } }], NOW)).toThrow(
      /data\.0\.created_at: required/,
    );
  });
});
