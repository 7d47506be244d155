import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { pinnedFactsStating } from './identity-sources.ts';
import { insertPinned, updatePinned } from './pinned.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('pinnedFactsStating', () => {
  it('finds the active fact of the same agent with the same words, by text index', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    const add = (agentId: string, content: string) =>
      insertPinned(
        t.db,
        { agentId, content, salience: 0.5, tags: [], pinnedByUser: false, sourceEpisodeId: null },
        1,
      );
    const nurse = add('a', 'The user works as a nurse.');
    add('a', 'The user works as a nurse in Porto, on nights.');
    add('b', 'The user lives in Lisbon.');
    const disabled = add('a', 'The user drives a "blue" van.');
    updatePinned(t.db, 'a', disabled, { status: 'disabled' }, 2);
    const found = pinnedFactsStating(t.db, 'a', [
      'the user works as a nurse',
      'The user lives in Lisbon.',
      'The user drives a "blue" van.',
      '***',
      'NEAR(user OR nurse)',
    ]);
    expect([...found]).toEqual([[0, nurse]]);
  });
});
