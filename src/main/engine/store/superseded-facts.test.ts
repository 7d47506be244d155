// A superseded fact is history: kept in the table, never returned by a read that feeds
// search or injection (DESIGN §6).
import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import {
  factsByRelation,
  heldRelations,
  insertPinned,
  listPinned,
  supersedePinned,
} from './pinned.ts';
import { getRowsByIds, memoryPresence, searchFts, searchLike, topPinnedFacts } from './search.ts';

const freshDb = databasePerTest();

function setup() {
  const db = freshDb();
  const add = (content: string, object: string, validFrom: number) =>
    insertPinned(
      db,
      {
        agentId: 'a',
        content,
        salience: 0.9,
        tags: [],
        pinnedByUser: false,
        sourceEpisodeId: null,
        typed: { subject: 'user', relation: 'lives_in', object },
        validFrom,
      },
      validFrom,
    );
  const berlin = add('User lives in Berlin', 'Berlin', 1);
  const lisbon = add('User lives in Lisbon', 'Lisbon', 2);
  return { db, berlin, lisbon };
}

describe('superseded facts', () => {
  it('are skipped by every search and listing, and kept as history', () => {
    const { db, berlin, lisbon } = setup();
    expect(
      searchFts(db, 'pinned', { agentId: 'a', match: 'berlin', since: null, limit: 5 }),
    ).toHaveLength(1);
    expect(supersedePinned(db, 'a', [berlin], 2, 3)).toBe(1);

    expect(
      searchFts(db, 'pinned', { agentId: 'a', match: 'berlin', since: null, limit: 5 }),
    ).toEqual([]);
    expect(
      searchLike(db, 'pinned', { agentId: 'a', terms: ['Berlin'], since: null, limit: 5 }),
    ).toEqual([]);
    expect([...getRowsByIds(db, 'pinned', 'a', [berlin, lisbon]).keys()]).toEqual([lisbon]);
    expect(topPinnedFacts(db, 'a', 10).map((h) => h.id)).toEqual([lisbon]);
    expect(factsByRelation(db, 'a', ['lives_in']).map((f) => f.id)).toEqual([lisbon]);
    expect(heldRelations(db, 'a')).toEqual(['lives_in']);
    const list = (history: boolean) =>
      listPinned(db, {
        agentId: 'a',
        status: 'all',
        sort: 'created_at',
        limit: 10,
        offset: 0,
        history,
      }).items;
    expect(list(false).map((f) => f.id)).toEqual([lisbon]);
    expect(list(true).map((f) => [f.id, f.superseded_at])).toEqual([
      [lisbon, null],
      [berlin, 2],
    ]);

    supersedePinned(db, 'a', [lisbon], 4, 5);
    expect(memoryPresence(db, 'a').pinned).toBe(false);
    expect(heldRelations(db, 'a')).toEqual([]);
  });

  it('factsByRelation lists the newest first, this agent only', () => {
    const { db, berlin, lisbon } = setup();
    expect(factsByRelation(db, 'a', ['lives_in', 'job']).map((f) => f.id)).toEqual([
      lisbon,
      berlin,
    ]);
    expect(factsByRelation(db, 'b', ['lives_in'])).toEqual([]);
    expect(factsByRelation(db, 'a', [])).toEqual([]);
  });

  it('heldRelations names each relation in force once, this agent only, not free-text facts', () => {
    const { db } = setup();
    insertPinned(
      db,
      {
        agentId: 'a',
        content: 'User likes long walks',
        salience: 0.5,
        tags: [],
        pinnedByUser: false,
        sourceEpisodeId: null,
      },
      3,
    );
    expect(heldRelations(db, 'a')).toEqual(['lives_in']);
    expect(heldRelations(db, 'b')).toEqual([]);
  });
});
