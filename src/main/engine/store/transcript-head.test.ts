import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { until } from '../../../../test/helpers/until.ts';
import { buildMatchExpression, buildPairedMatchExpression } from '../text/text.ts';
import type { Db } from './db.ts';
import { openDatabase } from './open.ts';
import { searchCandidates } from './search.ts';
import { recordTurns } from './transcript.ts';
import {
  createTranscriptHeadIndex,
  parseMatch,
  type HeadHit,
  type TranscriptHeadIndex,
  type TranscriptHeadOptions,
} from './transcript-head.ts';
import { createTrashEntry, moveRowsToTrash, restoreTrashEntry } from './trash.ts';

const open: { cleanup: () => void; index?: TranscriptHeadIndex }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) {
    o.index?.close();
    o.cleanup();
  }
});

const WORDS = (
  'tea coffee green jittery lisbon moved march manager priya boss dog beagle named biscuit ' +
  'walk park morning deploy friday release pipeline kotlin swift guitar lessons sister wedding ' +
  'allergic peanuts vegetarian train commute office remote spanish duolingo trip japan april ' +
  'kindergarten son daughter running marathon knee doctor appointment budget rent flat garden'
).split(' ');

/** Sentences of 4-14 words from WORDS, some words twice, some with endings porter strips. */
function sentences(n: number, seed: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 4 + Math.floor(random() * 11);
    const words: string[] = [];
    for (let j = 0; j < len; j++) {
      const w = WORDS[Math.floor(random() * random() * WORDS.length)] as string;
      words.push(random() < 0.2 ? `${w}s` : random() < 0.1 ? `${w}ing` : w);
    }
    out.push(`${words.join(' ')}.`);
  }
  return out;
}

function record(db: Db, texts: readonly string[], agentId = 'a'): number[] {
  return recordTurns(
    db,
    texts.map((content, i) => ({
      agentId,
      conversationId: `c${Math.floor(i / 10)}`,
      messages: [{ role: 'user' as const, content, createdAt: 1_700_000_000_000 + i }],
      distil: false,
    })),
  ).flatMap((r) => r.transcriptIds);
}

function fresh(rows: number, options: TranscriptHeadOptions = {}) {
  const t = tempDatabase();
  const o: (typeof open)[number] = { cleanup: t.cleanup };
  open.push(o);
  if (rows > 0) record(t.db, sentences(rows, 7));
  const index = createTranscriptHeadIndex(t.db, options);
  o.index = index;
  return { ...t, index };
}

/** FTS5's own answer (the statements of store/search.ts). */
function fts5Head(db: Db, match: string, inner: number, window: number | null): HeadHit[] {
  return (
    window === null
      ? db
          .prepare(
            `SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
              WHERE transcript_stem_fts MATCH ? ORDER BY rank LIMIT ?`,
          )
          .all(match, inner)
      : db
          .prepare(
            `SELECT id, rank FROM (
               SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
                WHERE transcript_stem_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
              ORDER BY rank LIMIT ?`,
          )
          .all(match, window, inner)
  ) as HeadHit[];
}

/**
 * The same head: the same scores, and the same rows for each score but the last (among rows
 * of equal score at the cut, FTS5's choice and this module's may differ; the synthetic
 * sentences have many such ties).
 */
function expectSameHead(
  mine: readonly HeadHit[] | null,
  theirs: readonly HeadHit[],
  what = '',
): void {
  expect(mine, what).not.toBeNull();
  const round = (r: number) => Math.round(r * 1e9) / 1e9;
  const order = (hits: readonly HeadHit[]) =>
    [...hits].sort((a, b) => a.rank - b.rank || b.id - a.id).map((h) => [h.id, round(h.rank)]);
  const a = order(mine!);
  const b = order(theirs);
  expect(
    a.map(([, r]) => r),
    what,
  ).toEqual(b.map(([, r]) => r));
  const last = b.at(-1)?.[1];
  const settled = (x: number[][]) => x.filter(([, r]) => r !== last);
  expect(settled(a), what).toEqual(settled(b));
}

const QUERIES: { match: string; window: number | null }[] = [
  { match: buildMatchExpression(['tea', 'coffee'])!, window: null },
  { match: buildMatchExpression(['jittery', 'beverage', 'drinking'])!, window: null },
  { match: buildMatchExpression(['manager', 'boss', 'priya', 'working'])!, window: 50 },
  { match: buildPairedMatchExpression(['beagle'], ['dog', 'walk', 'morning'])!, window: null },
  { match: buildPairedMatchExpression(['lisbon', 'march'], ['moved', 'flat'])!, window: 30 },
  // A word twice (two phrases of one token): FTS5 scores it twice.
  { match: buildMatchExpression(['running', 'runs', 'marathon'])!, window: null },
];

describe('the transcript head query from memory', () => {
  it('answers as FTS5 does, over all matches and over the newest of them', async () => {
    const { db, index } = fresh(1_500);
    await index.settled();
    expect(index.state()).toBe('ready');
    for (const { match, window } of QUERIES) {
      for (const inner of [5, 60]) {
        expectSameHead(
          index.head(match, inner, window),
          fts5Head(db, match, inner, window),
          `${match} ${inner} ${window}`,
        );
      }
    }
  });

  it('gives the transcript search the same candidates as FTS5 does', async () => {
    const { db, index } = fresh(800);
    await index.settled();
    for (const { match, window } of QUERIES) {
      const q = {
        agentId: 'a',
        matches: [match],
        enough: 10,
        likeTerms: null,
        since: null,
        limit: 20,
        neighbours: { lookups: 5, expand: 2 },
        ...(window === null ? {} : { recentMatches: window }),
      };
      const withIndex = searchCandidates(db, 'transcript', { ...q, head: index });
      const without = searchCandidates(db, 'transcript', q);
      const asHead = (hits: readonly { id: number; score: number }[]) =>
        hits.map((h) => ({ id: h.id, rank: -h.score }));
      expectSameHead(asHead(withIndex.hits), asHead(without.hits), match);
      expect(withIndex.hits.length).toBeGreaterThan(0);
    }
  });

  it('leaves to FTS5 what it cannot answer exactly: phrases, prefixes, other shapes', async () => {
    const { index } = fresh(200);
    await index.settled();
    // "e-mail" is two tokens, matched by FTS5 as a phrase.
    expect(index.head(buildMatchExpression(['e-mail'])!, 10, null)).toBeNull();
    expect(index.head(buildMatchExpression(['coffee'], { prefix: true })!, 10, null)).toBeNull();
    expect(index.head('"tea" NOT "coffee"', 10, null)).toBeNull();
    expect(index.head('tea', 10, null)).toBeNull();
    // A word no row holds matches nothing, as in FTS5.
    expect(index.head(buildMatchExpression(['zeppelin'])!, 10, null)).toEqual([]);
  });

  it('reads the quoted words of the expressions search writes, quotes inside included', () => {
    expect(parseMatch('"say ""hi""" OR ("a" AND "b")')).toEqual({
      phrases: ['say "hi"', 'a', 'b'],
      groups: [[0], [1, 2]],
    });
    expect(parseMatch('"a" OR')).toBeNull();
    expect(parseMatch('("a" OR "b")')).toBeNull();
    expect(parseMatch('"a"*')).toBeNull();
    expect(parseMatch('"unterminated')).toBeNull();
  });

  it('follows rows appended on this connection and on another (a worker thread’s)', async () => {
    const { db, index, path, key } = fresh(300);
    await index.settled();
    const match = buildMatchExpression(['zeppelin', 'tea'])!;
    record(db, ['We flew in a zeppelin over the tea fields']);
    const other = openDatabase({ path, key, migrate: false });
    try {
      record(other, ['The zeppelin museum sells tea', 'zeppelin zeppelin zeppelin']);
    } finally {
      other.close();
    }
    const mine = index.head(match, 20, null);
    expectSameHead(mine, fts5Head(db, match, 20, null));
    expect(mine!.slice(0, 3).map((h) => h.id)).toContain(
      (db.prepare(`SELECT max(id) AS id FROM transcript`).get() as { id: number }).id,
    );
  });

  it('drops its copy at once when a row is deleted, and answers again once rebuilt', async () => {
    const { db, index } = fresh(300);
    await index.settled();
    const [id] = record(db, ['My allergist says no pistachios ever']);
    const match = buildMatchExpression(['pistachios'])!;
    expect(index.head(match, 10, null)?.map((h) => h.id)).toEqual([id]);
    db.prepare('DELETE FROM transcript WHERE id = ?').run(id);
    // The next search finds the rewrite: no answer from the old copy.
    expect(index.head(match, 10, null)).toBeNull();
    expect(index.state()).toBe('building');
    await index.settled();
    expect(index.state()).toBe('ready');
    expect(index.head(match, 10, null)).toEqual([]);
    expectSameHead(
      index.head(QUERIES[0]!.match, 30, null),
      fts5Head(db, QUERIES[0]!.match, 30, null),
    );
  });

  it('follows text changed in place (a private span scrubbed) and rows restored from the trash', async () => {
    const { db, index } = fresh(200);
    await index.settled();
    const [id] = record(db, ['The locker code is pistachio seven']);
    const match = buildMatchExpression(['pistachio'])!;
    expect(index.head(match, 10, null)?.map((h) => h.id)).toEqual([id]);
    db.prepare(`UPDATE transcript SET content = '[private]' WHERE id = ?`).run(id);
    expect(index.head(match, 10, null)).toBeNull();
    await index.settled();
    expect(index.head(match, 10, null)).toEqual([]);

    // Moved to the trash and back: the row returns under its old id, below the newest.
    const [trashed] = record(db, ['Our pistachio farm tour is booked']);
    record(db, ['something newer']);
    const trash = createTrashEntry(db, { agentId: 'a', kind: 'turn', label: 'x', now: 1 });
    moveRowsToTrash(db, trash, 'a', 'transcript', [trashed!]);
    expect(index.head(match, 10, null)).toBeNull();
    await index.settled();
    expect(index.head(match, 10, null)).toEqual([]);
    restoreTrashEntry(db, trash);
    expect(index.head(match, 10, null)).toBeNull();
    await index.settled();
    expect(index.head(match, 10, null)?.map((h) => h.id)).toEqual([trashed]);
  });

  it('between searches, indexes rows appended in bulk and drops a copy holding deleted rows', async () => {
    const { db, index } = fresh(100, { checkMs: 20 });
    await index.settled();
    const match = buildMatchExpression(['zeppelin'])!;
    // More than a search indexes itself: without the check, the next search would find a
    // catch-up still to do and leave the answer to FTS5.
    const ids = record(
      db,
      Array.from({ length: 600 }, (_, i) => `zeppelin log entry ${i}`),
    );
    await until(() => index.size().rows === 700, 'the appended rows in the copy');
    await index.settled();
    expect(index.head(match, 700, null)).toHaveLength(600);

    db.prepare('DELETE FROM transcript WHERE id = ?').run(ids[0]);
    // No search: the check alone drops the copy and rebuilds it without the row.
    await until(() => index.size().rows === 699, 'the copy rebuilt without the deleted row');
    await index.settled();
    expect(index.state()).toBe('ready');
    expect(index.head(match, 700, null)).toHaveLength(599);
  });

  it('does not read inside an open transaction of its connection', async () => {
    const { db, index } = fresh(100);
    await index.settled();
    const match = buildMatchExpression(['tea'])!;
    db.transaction(() => {
      record(db, ['tea that may yet be rolled back']);
      expect(index.head(match, 10, null)).toBeNull();
    })();
    expect(index.head(match, 10, null)).not.toBeNull();
  });

  it('is built in slices, and rows written between them are in it when it is ready', async () => {
    const slices: (() => void)[] = [];
    const { db, index } = fresh(4_000, { schedule: (slice) => slices.push(slice), sliceMs: 0 });
    let ran = 0;
    while (slices.length > 0) {
      slices.shift()!();
      ran++;
      // Writes between slices: appended rows, then (once) a delete, which restarts the build.
      if (ran === 1) record(db, ['zeppelin tea at the harbour']);
      if (ran === 2) db.prepare('DELETE FROM transcript WHERE id = 5').run();
      if (ran > 200) throw new Error('the build does not end');
      if (slices.length === 0 && index.state() === 'building') {
        await new Promise((resolve) => setTimeout(resolve, 2_100));
      }
    }
    expect(ran).toBeGreaterThan(2);
    expect(index.state()).toBe('ready');
    for (const { match, window } of QUERIES) {
      expectSameHead(index.head(match, 40, window), fts5Head(db, match, 40, window));
    }
  });

  it('keeps no copy above its row limit: FTS5 answers', async () => {
    const t = tempDatabase();
    open.push({ cleanup: t.cleanup });
    record(t.db, sentences(50, 3));
    const index = createTranscriptHeadIndex(t.db, { maxRows: 20 });
    open[open.length - 1]!.index = index;
    await index.settled();
    expect(index.state()).toBe('off');
    expect(index.head(QUERIES[0]!.match, 10, null)).toBeNull();
  });
});
