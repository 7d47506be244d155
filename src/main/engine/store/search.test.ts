import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import type { Db } from './db.ts';
import {
  ftsDocumentFrequencies,
  recentConversationSample,
  searchCandidates,
  searchFts,
} from './search.ts';
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

describe('searchCandidates', () => {
  const conversation = (db: Db, agentId: string, lines: string[], at = 1_000) =>
    recordTurn(db, {
      agentId,
      conversationId: `${agentId}-talk`,
      messages: lines.map((content, i) => ({
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content,
        createdAt: at + i,
      })),
    }).transcriptIds;

  const base = {
    agentId: 'a',
    enough: 1,
    likeTerms: null,
    since: null,
    limit: 10,
  };

  it('returns the hits with the turns around them and the rows of those turns', () => {
    const db = setup();
    const [before, hit, after, far] = conversation(db, 'a', [
      'what did you feed it?',
      'the axolotl ate a worm',
      'lovely, they like worms',
      'unrelated later words',
    ]);
    const found = searchCandidates(db, 'transcript', {
      ...base,
      matches: ['"axolotl"'],
      neighbours: { lookups: 10, expand: 10 },
    });
    expect(found.hits.map((h) => h.id)).toEqual([hit]);
    expect(found.neighbours.get(hit!)).toEqual({ prev: before, next: after });
    expect([...found.rows.keys()]).toEqual([before, after]);
    expect(found.rows.has(far!)).toBe(false);
    expect(found.ftsError).toBeNull();
  });

  it('finds the neighbours within the conversation when the rows around are not of it', () => {
    const db = setup();
    const turn = (agentId: string, conversationId: string, content: string, at: number) =>
      recordTurn(db, {
        agentId,
        conversationId,
        messages: [{ role: 'user', content, createdAt: at }],
      }).transcriptIds[0]!;
    // Two conversations of the agent and one of another agent, interleaved row by row.
    const before = turn('a', 'one', 'what did you feed it?', 1);
    turn('a', 'two', 'unrelated words', 2);
    const gone = turn('a', 'one', 'a line that will be forgotten', 3);
    const hit = turn('a', 'one', 'the axolotl ate a worm', 4);
    turn('b', 'one', 'same conversation name, other agent', 5);
    const after = turn('a', 'one', 'lovely, they like worms', 6);
    db.prepare('DELETE FROM transcript WHERE id = ?').run(gone);
    const found = searchCandidates(db, 'transcript', {
      ...base,
      matches: ['"axolotl"'],
      neighbours: { lookups: 10, expand: 10 },
    });
    expect(found.neighbours.get(hit)).toEqual({ prev: before, next: after });
    // Rows next to each other of one conversation: the row beside is the neighbour.
    const lone = turn('a', 'three', 'a newt question', 7);
    const reply = turn('a', 'three', 'newts are fine', 8);
    const next = searchCandidates(db, 'transcript', {
      ...base,
      matches: ['"question"'],
      neighbours: { lookups: 10, expand: 10 },
    });
    expect(next.neighbours.get(lone)).toEqual({ prev: null, next: reply });
  });

  it('reads neighbour rows only for the expanded head, and never older than the window', () => {
    const db = setup();
    const [before, hit, after] = conversation(db, 'a', ['old question', 'axolotl', 'reply'], 1_000);
    const notExpanded = searchCandidates(db, 'transcript', {
      ...base,
      matches: ['"axolotl"'],
      neighbours: { lookups: 10, expand: 0 },
    });
    expect(notExpanded.neighbours.get(hit!)).toEqual({ prev: before, next: after });
    expect(notExpanded.rows.size).toBe(0);
    const windowed = searchCandidates(db, 'transcript', {
      ...base,
      since: 1_001,
      matches: ['"axolotl"'],
      neighbours: { lookups: 10, expand: 10 },
    });
    expect([...windowed.rows.keys()]).toEqual([after]);
  });

  it('tries the wider expression only while too few rows were found, without repeats', () => {
    const db = setup();
    const [both, one] = conversation(db, 'a', ['axolotl and newt', 'just a newt']);
    const q = { ...base, matches: ['"axolotl" AND "newt"', '"axolotl" OR "newt"'] };
    expect(searchCandidates(db, 'transcript', q).hits.map((h) => h.id)).toEqual([both]);
    expect(searchCandidates(db, 'transcript', { ...q, enough: 2 }).hits.map((h) => h.id)).toEqual([
      both,
      one,
    ]);
  });

  it('scans with LIKE when no expression matched, and reports a failing expression', () => {
    const db = setup();
    const [id] = conversation(db, 'a', ['axolotls everywhere']);
    const found = searchCandidates(db, 'transcript', {
      ...base,
      matches: [null, 'bad "syntax'],
      likeTerms: ['xolot'],
    });
    expect(found.hits.map((h) => h.id)).toEqual([id]);
    expect(found.ftsError).toMatch(/syntax|unterminated|fts5/iu);
    const quiet = searchCandidates(db, 'transcript', { ...base, matches: ['"nothing"'] });
    expect(quiet.hits).toEqual([]);
  });

  it('looks up the neighbours of hits that came without them (the LIKE scan)', () => {
    const db = setup();
    const [before, hit] = conversation(db, 'a', ['a question first', 'axolotls everywhere']);
    const found = searchCandidates(db, 'transcript', {
      ...base,
      matches: [null],
      likeTerms: ['xolot'],
      neighbours: { lookups: 10, expand: 10 },
    });
    expect(found.neighbours.get(hit!)).toEqual({ prev: before, next: null });
    expect([...found.rows.keys()]).toEqual([before]);
  });

  it("reads further rows by id: this agent's only, not the hits again", () => {
    const db = setup();
    const [hit, other] = conversation(db, 'a', ['axolotl', 'a reply']);
    const [foreign] = conversation(db, 'b', ['someone else']);
    const found = searchCandidates(db, 'transcript', {
      ...base,
      matches: ['"axolotl"'],
      ids: [foreign!, other!, hit!],
    });
    expect([...found.rows.keys()]).toEqual([other]);
  });
});

describe('ftsDocumentFrequencies', () => {
  it('counts the rows holding each term, up to the cap', () => {
    const db = setup();
    turns(db, 'a', ['axolotl one', 'axolotl two', 'axolotl three', 'newt']);
    turns(db, 'b', ['axolotl of another agent']);
    expect(ftsDocumentFrequencies(db, 'transcript', ['"axolotl"', '"newt"', '"toad"'], 10)).toEqual(
      [4, 1, 0],
    );
    expect(ftsDocumentFrequencies(db, 'transcript', ['"axolotl"'], 2)).toEqual([2]);
  });
});

describe('recentConversationSample', () => {
  it('takes the last turns of the most recent conversations and of some spread over the history', () => {
    const db = setup();
    const say = (agentId: string, conversationId: string, n: number) =>
      recordTurn(db, {
        agentId,
        conversationId,
        messages: Array.from({ length: n }, (_, i) => ({
          role: 'user' as const,
          content: `${conversationId} turn ${i}`,
          createdAt: 1_000,
        })),
      }).transcriptIds;
    // Ten conversations of three turns, in the order c0..c9; c2 is spoken in again last.
    for (let c = 0; c < 10; c++) say('a', `c${c}`, 3);
    say('a', 'c2', 1);
    say('b', 'other', 5);
    const heads = (n: number, per: number, spread: number) =>
      recentConversationSample(db, 'a', n, per, spread)
        .map((t) => t.head)
        .sort();
    // The two most recently active: c2 (its new turn) and c9; two turns of each.
    expect(heads(2, 2, 0)).toEqual(['c2 turn 0', 'c2 turn 2', 'c9 turn 1', 'c9 turn 2']);
    // A spread of 5 over the 10 conversations, ordered by their last turn (c2 is last now):
    // every second one from the oldest on.
    expect(heads(0, 1, 5)).toEqual([
      'c0 turn 2',
      'c3 turn 2',
      'c5 turn 2',
      'c7 turn 2',
      'c9 turn 2',
    ]);
    // Another agent's conversations are never sampled.
    expect(heads(20, 10, 10).some((h) => h.startsWith('other'))).toBe(false);
    expect(heads(20, 10, 10)).toHaveLength(31);
  });
});
