import { describe, expect, it } from 'vitest';
import { coerceSalience, extractJsonObject, parseDigest } from './digest.ts';

const good = {
  episode: {
    summary: 'Ada planned a trip to Lisbon.',
    topics: ['travel'],
    entities: ['Lisbon'],
    decisions: ['Fly on Friday'],
    action_items: ['Book hotel'],
    salience: 0.7,
  },
  pinned_candidates: [{ content: 'User is vegetarian', salience: 0.8, tags: ['food'] }],
  identity_facts: ["User's name is Ada"],
};

describe('parseDigest', () => {
  it('parses raw JSON', () => {
    const r = parseDigest(JSON.stringify(good));
    expect(r).toEqual({ ok: true, digest: good });
  });

  it('parses a fenced block surrounded by prose', () => {
    const text = `Sure! Here is the digest:\n\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\nLet me know.`;
    const r = parseDigest(text);
    expect(r.ok && r.digest.episode.summary).toBe('Ada planned a trip to Lisbon.');
  });

  it('parses first { to last } in prose', () => {
    const r = parseDigest(`The result is ${JSON.stringify(good)} — done.`);
    expect(r.ok).toBe(true);
  });

  it('recovers truncated JSON up to the last complete member', () => {
    const full = JSON.stringify(good);
    const cut = full.slice(0, full.indexOf('"identity_facts"') + 20);
    const r = parseDigest(cut);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.digest.episode.summary).toBe('Ada planned a trip to Lisbon.');
      expect(r.digest.pinned_candidates).toHaveLength(1);
    }
  });

  it('coerces near-miss types', () => {
    const r = parseDigest(
      JSON.stringify({
        episode: { summary: 'S', topics: 'travel', entities: null, salience: '0.9' },
        pinned_candidates: ['User likes tea', { text: 'User runs', salience: 8 }, ''],
        identity_facts: 'User is Ada',
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.digest.episode.topics).toEqual(['travel']);
    expect(r.digest.episode.entities).toEqual([]);
    expect(r.digest.episode.salience).toBe(0.9);
    expect(r.digest.pinned_candidates).toEqual([
      { content: 'User likes tea', salience: 0.5, tags: [] },
      { content: 'User runs', salience: 0.8, tags: [] },
    ]);
    expect(r.digest.identity_facts).toEqual(['User is Ada']);
  });

  it('accepts a flat episode at the top level', () => {
    const r = parseDigest(JSON.stringify({ summary: 'Flat', topics: ['x'] }));
    expect(r.ok && r.digest.episode.summary).toBe('Flat');
  });

  it.each([
    ['prose only', 'I could not summarise this conversation.'],
    ['empty', ''],
    ['no summary', JSON.stringify({ episode: { topics: ['a'] } })],
    ['an episode of the wrong type', JSON.stringify({ episode: 42 })],
    ['truncated before any member', '{"episode": {"summ'],
  ])('rejects %s', (_name, text) => {
    const r = parseDigest(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
  });
});

describe('helpers', () => {
  it('clamps and scales salience', () => {
    expect(coerceSalience('0.3')).toBe(0.3);
    expect(coerceSalience(-2)).toBe(0);
    expect(coerceSalience(7)).toBe(0.7);
    expect(coerceSalience(250)).toBe(1);
    expect(coerceSalience('high')).toBe(0.5);
  });
  it('finds JSON in an unterminated fence', () => {
    expect(extractJsonObject('```json\n{"a": 1, "b": [1, 2')).toEqual({ a: 1, b: [1] });
  });
});
