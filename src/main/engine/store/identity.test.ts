import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { appendIdentityOverrides, getIdentity, putIdentity } from './identity.ts';

const db = databasePerTest();

describe('identity repository', () => {
  it('returns an empty identity for an unknown agent', () => {
    expect(getIdentity(db(), 'a')).toEqual({
      agent_id: 'a',
      narrative: '',
      overrides: [],
      updated_at: null,
    });
  });

  it('stores per agent and appends overrides without duplicates', () => {
    const d = db();
    putIdentity(d, 'a', { narrative: 'Ada, engineer' }, 1000);
    expect(
      appendIdentityOverrides(d, 'a', ["User's name is Ada", 'User lives in Paris'], 2000),
    ).toBe(2);
    expect(appendIdentityOverrides(d, 'a', ["user's name is Ada.", 'User likes tea'], 3000)).toBe(
      1,
    );
    const a = getIdentity(d, 'a');
    expect(a.narrative).toBe('Ada, engineer');
    expect(a.overrides).toEqual(["User's name is Ada", 'User lives in Paris', 'User likes tea']);
    expect(a.updated_at).toBe(3000);
    expect(getIdentity(d, 'b').overrides).toEqual([]);
  });
});

describe('identity overrides with keys', () => {
  it('replaces an override that states the same attribute', () => {
    const d = db();
    const keyOf = (s: string) => (/lives in/.test(s) ? 'location' : null);
    appendIdentityOverrides(d, 'a', ['User lives in Berlin', 'User likes tea'], 1, keyOf);
    expect(appendIdentityOverrides(d, 'a', ['User lives in Paris'], 2, keyOf)).toBe(1);
    expect(getIdentity(d, 'a').overrides).toEqual(['User lives in Paris', 'User likes tea']);
  });
});
