import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import type { Db } from './db.ts';
import { searchFts } from './search.ts';
import { recordTurn } from './transcript.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(): Db {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return t.db;
}

function turns(db: Db, agentId: string, lines: string[]): number[] {
  return recordTurn(db, {
    agentId,
    conversationId: `${agentId}-conv`,
    messages: lines.map((content) => ({ role: 'user' as const, content, createdAt: 1_000 })),
  }).transcriptIds;
}

const search = (db: Db, agentId: string, limit: number) =>
  searchFts(db, 'transcript', { agentId, match: '"axolotl"', since: null, limit }).map((h) => h.id);

describe('searchFts (transcript)', () => {
  // BM25 ranks short rows with the term above longer ones, so another agent's short rows
  // take the head of the ranking.
  const mine = [
    'axolotl in a tank by the window',
    'the axolotl ate a worm this morning in the tank',
    'we talked about the axolotl and then about many other unrelated things for a while',
  ];

  it("returns this agent's best rows when another agent's rows lead the ranking", () => {
    const db = setup();
    turns(db, 'b', ['axolotl axolotl', 'axolotl axolotl', 'axolotl axolotl']);
    const a = turns(db, 'a', mine);
    expect(search(db, 'a', 2)).toEqual([a[0], a[1]]);
    expect(search(db, 'a', 10)).toEqual(a);
  });

  it("falls back to the agent-filtered query when the head holds none of this agent's rows", () => {
    const db = setup();
    turns(
      db,
      'b',
      Array.from({ length: 12 }, () => 'axolotl axolotl'),
    );
    const a = turns(db, 'a', mine);
    expect(search(db, 'a', 2)).toEqual([a[0], a[1]]);
  });

  it('reads only the best rows of a single agent', () => {
    const db = setup();
    const a = turns(db, 'a', mine);
    expect(search(db, 'a', 1)).toEqual([a[0]]);
    expect(search(db, 'a', 3)).toEqual(a);
  });

  it('scores only the most recent matches when asked to (large memories)', () => {
    const db = setup();
    const [oldest] = turns(db, 'a', ['axolotl axolotl']);
    const later = turns(db, 'a', [
      'an axolotl and several more words',
      'an axolotl, several more words and yet more',
      'axolotl in the tank',
      'one more axolotl line with plenty of other words in it',
    ]);
    const q = { agentId: 'a', match: '"axolotl"', since: null, limit: 1 };
    expect(searchFts(db, 'transcript', q).map((h) => h.id)).toEqual([oldest]);
    // limit 1 reads a head of 3: the window is at least that.
    expect(searchFts(db, 'transcript', { ...q, recentMatches: 3 }).map((h) => h.id)).toEqual([
      later[2],
    ]);
  });
});
