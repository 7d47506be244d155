import { describe, expect, it } from 'vitest';
import { checkedTime, countTurns, guessFormat } from './imported.ts';

const NOW = Date.UTC(2025, 5, 1);

describe('countTurns', () => {
  it('counts each user message with the answers after it as one exchange', () => {
    const roles = (...r: string[]) => r.map((role) => ({ role }));
    expect(countTurns(roles('user', 'assistant', 'assistant', 'user'))).toBe(2);
    expect(countTurns(roles('assistant', 'user', 'assistant'))).toBe(2);
    expect(countTurns(roles('system', 'tool'))).toBe(0);
    expect(countTurns([])).toBe(0);
  });
});

describe('guessFormat', () => {
  it('recognises each export by its keys, and nothing else', () => {
    expect(guessFormat([{ mapping: {} }])).toBe('chatgpt');
    expect(guessFormat([{ chat_messages: [] }])).toBe('claude');
    expect(guessFormat([{ chat: {} }])).toBe('openwebui');
    expect(guessFormat({ format: 'cairn-memory' })).toBe('cairn');
    expect(guessFormat([])).toBeNull();
    expect(guessFormat([{ messages: [] }])).toBeNull();
    expect(guessFormat('text')).toBeNull();
  });
});

describe('checkedTime', () => {
  it('accepts a real time and refuses what ingest refuses', () => {
    expect(checkedTime('claude', Date.UTC(2001, 1, 3), 'x', NOW)).toBe(Date.UTC(2001, 1, 3));
    expect(() => checkedTime('claude', Date.UTC(1899, 11, 31), 'x.at', NOW)).toThrow(
      /x\.at: the year must be between 1900 and 2026/,
    );
    expect(() => checkedTime('claude', Number.NaN, 'x.at', NOW)).toThrow(
      /x\.at: NaN is not a date/,
    );
  });
});
