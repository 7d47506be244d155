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

  it('finds the fact again when asked again, and sees at once when it changed', () => {
    const db = freshDb();
    const nurse = addFact(db, { agentId: 'a', content: 'User is a nurse' }, 1);
    const ask = () => [...pinnedFactsStating(db, 'a', ['User is a nurse'])];
    expect(ask()).toEqual([[0, nurse]]);
    expect(ask()).toEqual([[0, nurse]]);
    // Another agent asking for the same words gets its own answer.
    expect([...pinnedFactsStating(db, 'b', ['User is a nurse'])]).toEqual([]);
    // Edited to say something else: no longer the line's fact.
    updatePinned(db, 'a', nurse, { content: 'User is a midwife' }, 2);
    expect(ask()).toEqual([]);
    updatePinned(db, 'a', nurse, { content: 'User is a nurse' }, 3);
    expect(ask()).toEqual([[0, nurse]]);
    // Switched off, then gone: another fact stating the line is found instead.
    updatePinned(db, 'a', nurse, { status: 'disabled' }, 4);
    const again = addFact(db, { agentId: 'a', content: 'User is a nurse.' }, 5);
    expect(ask()).toEqual([[0, again]]);
    db.prepare('DELETE FROM pinned_facts WHERE id = ?').run(again);
    expect(ask()).toEqual([]);
  });
});
