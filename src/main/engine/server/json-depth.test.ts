import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './json-depth.ts';

function nestedArrays(depth: number): unknown {
  return JSON.parse('['.repeat(depth) + ']'.repeat(depth));
}

function nestedObjects(depth: number): unknown {
  return JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

describe('exceedsJsonDepth', () => {
  it('counts scalars as depth 0 and each array or object as one level', () => {
    expect(exceedsJsonDepth('text', 0)).toBe(false);
    expect(exceedsJsonDepth(null, 0)).toBe(false);
    expect(exceedsJsonDepth([], 0)).toBe(true);
    expect(exceedsJsonDepth([], 1)).toBe(false);
    expect(exceedsJsonDepth({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(exceedsJsonDepth({ a: [1, { b: 2 }] }, 2)).toBe(true);
  });

  it('accepts exactly the limit and refuses one level more, for arrays and objects', () => {
    expect(exceedsJsonDepth(nestedArrays(64), 64)).toBe(false);
    expect(exceedsJsonDepth(nestedArrays(65), 64)).toBe(true);
    expect(exceedsJsonDepth(nestedObjects(64), 64)).toBe(false);
    expect(exceedsJsonDepth(nestedObjects(65), 64)).toBe(true);
  });

  it('finds a deep branch beside shallow ones', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], extra: nestedArrays(100) };
    expect(exceedsJsonDepth(body, 64)).toBe(true);
  });

  it('measures a value far deeper than the stack allows without overflowing', () => {
    expect(exceedsJsonDepth(nestedArrays(1_000_000), 64)).toBe(true);
    // A wide, shallow value is walked completely.
    expect(
      exceedsJsonDepth(
        Array.from({ length: 100_000 }, (_, i) => ({ i })),
        64,
      ),
    ).toBe(false);
  });
});
