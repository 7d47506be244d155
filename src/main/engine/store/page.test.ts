// Paged lists with their filter box, on the real encrypted database.
import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { listEpisodes } from './episodes.ts';
import { selectPage } from './page.ts';
import { listPinned } from './pinned.ts';

const db = databasePerTest();

describe('selectPage', () => {
  it('gives one page in the order asked and the total of every matching row', () => {
    const d = db();
    for (let i = 1; i <= 5; i++) addFact(d, { agentId: 'a', content: `fact ${i}` }, i);
    addFact(d, { agentId: 'b', content: 'fact of b' }, 9);
    const page = selectPage<{ content: string }>(d, {
      table: 'pinned_facts',
      equal: { agent_id: 'a' },
      orderBy: 'created_at DESC',
      limit: 2,
      offset: 1,
    });
    expect(page.rows.map((r) => r.content)).toEqual(['fact 4', 'fact 3']);
    expect(page.total).toBe(5);
  });

  it('finds the typed words in any of the columns, with % and _ taken literally', () => {
    const d = db();
    addEpisode(d, { agentId: 'a', summary: 'Planned the trip', topics: ['Lisbon'] }, 1);
    addEpisode(d, { agentId: 'a', summary: 'Paid 100% of the rent', entities: ['rent'] }, 2);
    addEpisode(d, { agentId: 'a', summary: 'Unrelated' }, 3);
    const found = (q: string) =>
      listEpisodes(d, { agentId: 'a', limit: 10, offset: 0, q }).items.map((e) => e.summary);
    expect(found('  lisbon ')).toEqual(['Planned the trip']);
    expect(found('100%')).toEqual(['Paid 100% of the rent']);
    expect(found('10_')).toEqual([]);
    expect(found('   ')).toHaveLength(3);
  });

  it('keeps the filter inside the agent and the other conditions', () => {
    const d = db();
    addFact(d, { agentId: 'a', content: 'Likes tea', tags: ['drinks'] }, 1);
    addFact(d, { agentId: 'b', content: 'Likes tea too' }, 1);
    const list = (q: string) =>
      listPinned(d, { agentId: 'a', status: 'all', sort: 'created_at', limit: 10, offset: 0, q });
    expect(list('drinks').items.map((f) => f.content)).toEqual(['Likes tea']);
    expect(list('tea').total).toBe(1);
  });
});
