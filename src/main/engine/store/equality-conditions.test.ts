import { describe, expect, it } from 'vitest';
import { equalityConditions, whereClause } from './equality-conditions.ts';

describe('equalityConditions', () => {
  it('has a condition for each value given, in order, and skips the ones left undefined', () => {
    expect(equalityConditions({ agent_id: 'a', kind: undefined, row_id: 0 })).toEqual({
      conditions: ['agent_id = ?', 'row_id = ?'],
      params: ['a', 0],
    });
  });

  it('makes no WHERE without conditions', () => {
    expect(whereClause(equalityConditions({ kind: undefined }).conditions)).toBe('');
    expect(whereClause(['a = ?', 'b IS NULL'])).toBe('WHERE a = ? AND b IS NULL');
  });
});
