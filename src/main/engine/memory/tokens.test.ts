import { describe, expect, it } from 'vitest';
import { countTokens, EXACT_LIMIT_CHARS, truncateToTokens } from './tokens.ts';

describe('countTokens', () => {
  it('counts cl100k_base tokens exactly for ordinary text', () => {
    expect(countTokens('')).toBe(0);
    // Known cl100k_base counts.
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    // Special-token strings are plain text, not an error.
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('estimates very long texts close to the exact count, never far below', () => {
    const sentence = 'Helena went to the climbing gym on 7 May 2023 and felt great. ';
    const long = sentence.repeat(Math.ceil((EXACT_LIMIT_CHARS * 3) / sentence.length));
    // Exact count: the text is made of whole sentences, so counting it in sentence-aligned
    // chunks under the exact limit gives the true total.
    const perChunk = Math.floor(EXACT_LIMIT_CHARS / sentence.length);
    let exactish = 0;
    for (let i = 0; i < long.length; i += perChunk * sentence.length) {
      exactish += countTokens(long.slice(i, i + perChunk * sentence.length));
    }
    const est = countTokens(long);
    expect(est).toBeGreaterThanOrEqual(exactish * 0.97);
    expect(est).toBeLessThanOrEqual(exactish * 1.15);
  });

  it('counts a megabyte of text', () => {
    // Its speed is measured by the benches, not asserted against the wall clock here.
    const big = 'lorem ipsum dolor sit amet '.repeat(40_000);
    expect(countTokens(big)).toBeGreaterThan(100_000);
  });
});

describe('truncateToTokens', () => {
  it('keeps text that fits and cuts text that does not, within the limit', () => {
    expect(truncateToTokens('short text', 10)).toBe('short text');
    const long = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi';
    for (const max of [1, 2, 3, 5, 8, 12]) {
      const cut = truncateToTokens(long, max);
      expect(countTokens(cut)).toBeLessThanOrEqual(max);
      if (cut !== '') expect(cut.endsWith('…')).toBe(true);
    }
    expect(truncateToTokens(long, 0)).toBe('');
  });

  it('never leaves a broken character', () => {
    const cut = truncateToTokens('日本語のテキストはとても長いです。'.repeat(5), 7);
    expect(cut).not.toContain('\uFFFD');
    expect(countTokens(cut)).toBeLessThanOrEqual(7);
  });
});
