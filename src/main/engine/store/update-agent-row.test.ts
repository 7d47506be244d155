import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { addFact } from '../../../../test/helpers/memory-rows.ts';
import { getPinned } from './pinned.ts';
import { updateAgentRow } from './update-agent-row.ts';

const db = databasePerTest();

describe('updateAgentRow', () => {
  it('sets the columns given, keeps the ones left undefined, and only in the agent’s own row', () => {
    const d = db();
    const id = addFact(d, { agentId: 'a', content: 'Likes tea', salience: 0.4 }, 1);
    expect(updateAgentRow(d, 'pinned_facts', 'b', id, { content: 'Hijacked' })).toBe(false);
    expect(
      updateAgentRow(d, 'pinned_facts', 'a', id, {
        content: undefined,
        salience: 0.9,
        updated_at: 5,
      }),
    ).toBe(true);
    expect(getPinned(d, 'a', id)).toMatchObject({
      content: 'Likes tea',
      salience: 0.9,
      updated_at: 5,
    });
  });
});
