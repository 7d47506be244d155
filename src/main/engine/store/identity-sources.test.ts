import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { addFact } from '../../../../test/helpers/memory-rows.ts';
import { pinnedFactsStating } from './identity-sources.ts';
import { updatePinned } from './pinned.ts';

const freshDb = databasePerTest();

describe('pinnedFactsStating', () => {
  it('finds the active fact of the same agent with the same words, by text index', () => {
    const db = freshDb();
    const add = (agentId: string, content: string) => addFact(db, { agentId, content }, 1);
    const nurse = add('a', 'The user works as a nurse.');
    add('a', 'The user works as a nurse in Porto, on nights.');
    add('b', 'The user lives in Lisbon.');
    const disabled = add('a', 'The user drives a "blue" van.');
    updatePinned(db, 'a', disabled, { status: 'disabled' }, 2);
    const found = pinnedFactsStating(db, 'a', [
      'the user works as a nurse',
      'The user lives in Lisbon.',
      'The user drives a "blue" van.',
      '***',
      'NEAR(user OR nurse)',
    ]);
    expect([...found]).toEqual([[0, nurse]]);
  });
});
