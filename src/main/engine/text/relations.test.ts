import { describe, expect, it } from 'vitest';
import { RELATIONS, isRelation, isSingleValued, relationSpec } from './relations.ts';

describe('relations', () => {
  it('names each relation once, each with a description to match questions against', () => {
    const names = RELATIONS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of RELATIONS) expect(r.description.split(/[ ,:]+/).length).toBeGreaterThan(3);
  });

  it('knows which relations hold one value at a time', () => {
    expect(isSingleValued('lives_in')).toBe(true);
    expect(isSingleValued('manager')).toBe(true);
    expect(isSingleValued('pet')).toBe(false);
    expect(isSingleValued('hobby')).toBe(false);
  });

  it('rejects names outside the set', () => {
    expect(isRelation('lives_in')).toBe(true);
    expect(isRelation('favourite_colour_of_the_moon')).toBe(false);
    expect(relationSpec('diet').name).toBe('diet');
  });
});
