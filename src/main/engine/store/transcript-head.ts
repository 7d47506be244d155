import Database from 'better-sqlite3-multiple-ciphers';
import type { Logger } from '../logger.ts';
import type { Db } from './db.ts';

// The transcript search's head query (store/search.ts: the best rows of a MATCH by FTS5's
// bm25(), over all matches or the newest `window` of them) answered from memory. It was the
// largest single cost of a memory request on the HTTP thread (issue 11: 20-27 % of that
// thread under 50 clients at 10k rows, ~2 ms of a request at 100k rows);
// `bench/fts-head-compare.ts` measures this module against FTS5 (0.14 against 1.7 ms at 10k
// rows, 0.19 against 3.5 ms at 100k, the same top 10 for 300 of 300 LoCoMo questions).
//
// Ranking is FTS5's own: the postings are built from FTS5's tokens (its fts5vocab `instance`
// table, https://www.sqlite.org/fts5.html#the_fts5vocab_virtual_table_module), new rows and
// query words go through the same tokenizer in a private in-memory database, and the score is
// bm25() as FTS5 computes it (https://www.sqlite.org/fts5.html#the_bm25_function: each phrase
// of the query counts where its part of the expression matched, its IDF from all the rows
// holding it). A query this module cannot
// answer exactly (a word of several tokens, which FTS5 matches as a phrase; a prefix query;
// any other MATCH shape) gets null, and FTS5 answers it as before.
//
// How it stays true to the table, whatever connection wrote (the writer and maintenance
// threads have their own):
// - Rows are appended with ids above every other (one writer at a time, INTEGER PRIMARY KEY):
//   each search first reads the largest id and indexes the rows above the last one it holds.
// - Anything else (a row deleted: forget, retention, a conversation removed; text changed: a
//   private span scrubbed; a row restored under an old id) adds one to `transcript_rewrites`
//   (migration 014). Each search reads it (one primary-key read), and so does a check every
//   CHECK_MS between searches; when it moved, the whole copy is dropped, so forgotten words do
//   not stay in memory, and rebuilt in slices while FTS5 answers. The same check indexes rows
//   appended in bulk before a search needs them.
// - Nothing is read inside an open transaction of the connection (its writes may still roll
//   back).
// - The copy is built in slices of a few milliseconds (by ranges of terms) so start-up and
//   requests never wait for it; FTS5 answers until it is ready.
//
// Written by hand: no maintained library ranks with FTS5's bm25() over FTS5's own tokens,
// which is what keeps the two answers the same.

/** FTS5's bm25() constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** Must be migration 002's tokenizer for transcript_stem_fts. */
const TOKENIZER = 'porter unicode61 remove_diacritics 2';
/** Work per slice of the build or of a large catch-up. */
const SLICE_MS = 8;
/** Term instances read per statement while building (~3 ms of work). */
const INSTANCES_PER_READ = 20_000;
/** Rows a search indexes itself before answering; more are left to background slices. */
const INLINE_APPEND_ROWS = 256;
/** Rows read per statement when catching up in the background (~5 ms of work). */
const APPEND_BATCH_ROWS = 250;
/**
 * How often the copy looks at the table without being asked (one primary-key read): rows
 * appended in bulk (an ingest, an import) are indexed in quiet moments before the next search
 * needs them, and a copy holding deleted rows' words is dropped within this long even when
 * no search comes.
 */
const CHECK_MS = 2_000;
/**
 * Above this many rows no copy is kept (FTS5 answers): postings cost ~120 bytes a row
 * (12 MB at 100k LoCoMo turns), so this bounds the copy near 50 MB.
 */
const MAX_ROWS = 400_000;
/** A build that a rewrite overtook starts again after this long (a bulk delete in progress). */
const REBUILD_DELAY_MS = 2_000;
/** Query words whose tokens are remembered. */
const WORD_CACHE_ENTRIES = 10_000;

export interface HeadHit {
  id: number;
  /** bm25() as FTS5 returns it: negative, best first when sorted ascending. */
  rank: number;
}

export type TranscriptHeadState = 'building' | 'ready' | 'off' | 'closed';

export interface TranscriptHeadIndex {
  /**
   * The best `inner` rows of all agents matching `match` (a MATCH expression as
   * buildMatchExpression / buildPairedMatchExpression write it), over all matches or, with
   * `window`, the newest `window` of them, best first, as store/search.ts's head queries
   * return them. null when the copy is not ready or cannot answer this query exactly.
   */
  head(match: string, inner: number, window: number | null): HeadHit[] | null;
  state(): TranscriptHeadState;
  /** What the copy holds (zeros while there is none). */
  size(): { rows: number; terms: number; bytes: number };
  /** Resolves when no build or catch-up is scheduled (tests, benches). */
  settled(): Promise<void>;
  close(): void;
}

export interface TranscriptHeadOptions {
  logger?: Logger;
  /** Runs a slice of background work (default setImmediate; the engine: when quiet). */
  schedule?: (slice: () => void) => void;
  /** Most rows the copy is kept for (default MAX_ROWS). */
  maxRows?: number;
  /** Work per slice (default SLICE_MS; at least one read happens in each). */
  sliceMs?: number;
  /** How often the table is looked at without a search (default CHECK_MS). */
  checkMs?: number;
}

interface Postings {
  /** Row ids, ascending, the first `n` used. */
  ids: Int32Array;
  /** Occurrences of the term in each of those rows. */
  tf: Uint16Array;
  n: number;
}

interface Copy {
  terms: Map<string, Postings>;
  /** Tokens per row, by id. */
  lengths: Uint32Array;
  /** Rows of the table, empty ones included (FTS5's row count). */
  rows: number;
  tokens: number;
  /** Every row up to this id is in. */
  maxId: number;
  /** transcript_rewrites when the copy was taken. */
  rewrites: number;
}

interface Stamp {
  rewrites: number;
  maxId: number;
}

const NO_POSTINGS: Postings = { ids: new Int32Array(0), tf: new Uint16Array(0), n: 0 };

export function createTranscriptHeadIndex(
  db: Db,
  options: TranscriptHeadOptions = {},
): TranscriptHeadIndex {
  const log = options.logger;
  const schedule = options.schedule ?? ((slice: () => void) => void setImmediate(slice));
  const maxRows = options.maxRows ?? MAX_ROWS;
  const sliceMs = options.sliceMs ?? SLICE_MS;

  const stampStmt = db.prepare(
    `SELECT (SELECT n FROM transcript_rewrites WHERE id = 1) AS rewrites,
            (SELECT coalesce(max(id), 0) FROM transcript) AS maxId`,
  );
  const newRowsStmt = db.prepare(
    'SELECT id, content FROM transcript WHERE id > ? AND id <= ? ORDER BY id LIMIT ?',
  );
  // FTS5's own tokens of the stored rows, term by term (temp schema: nothing is written to
  // the database file).
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.transcript_head_terms
      USING fts5vocab(main, transcript_stem_fts, row);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.transcript_head_instances
      USING fts5vocab(main, transcript_stem_fts, instance);`);
  const termsAfterStmt = db
    .prepare('SELECT term, doc, cnt FROM temp.transcript_head_terms WHERE term > ? LIMIT 128')
    .raw();
  const instancesStmt = db
    .prepare(
      'SELECT term, doc FROM temp.transcript_head_instances WHERE term > ? AND term <= ? AND doc <= ?',
    )
    .raw();

  // The same tokenizer, in a database of this module's own, for new rows and query words:
  // contentless (no copy of the text is kept), emptied at once by 'delete-all'
  // (https://www.sqlite.org/fts5.html#contentless_tables).
  const words = new Database(':memory:');
  words.exec(`
    CREATE VIRTUAL TABLE words USING fts5 (content, content = '', tokenize = '${TOKENIZER}');
    CREATE VIRTUAL TABLE words_instances USING fts5vocab(words, instance);`);
  const putWords = words.prepare('INSERT INTO words (rowid, content) VALUES (?, ?)');
  const readWords = words.prepare('SELECT term, doc FROM words_instances').raw();
  const clearWords = words.prepare(`INSERT INTO words (words) VALUES ('delete-all')`);
  const wordCache = new Map<string, string | null>();

  let state: TranscriptHeadState = 'building';
  let copy: Copy | null = null;
  /** Background work is scheduled (a build or a catch-up). */
  let busy = false;
  let waiters: (() => void)[] = [];
  let build: Build | null = null;

  const stamp = (): Stamp => stampStmt.get() as Stamp;

  function idle(): void {
    busy = false;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  }

  function later(slice: () => void, delayMs = 0): void {
    busy = true;
    const run = () => {
      if (state === 'closed') return idle();
      try {
        slice();
      } catch (err) {
        fail(err);
        idle();
      }
    };
    if (delayMs > 0) setTimeout(() => schedule(run), delayMs).unref();
    else schedule(run);
  }

  /** FTS5 keeps answering; a copy that failed once is not trusted again until restart. */
  function fail(err: unknown): void {
    log?.warn('transcript search copy failed; full-text search answers', {
      error: err instanceof Error ? err.message : String(err),
    });
    drop('off');
  }

  function drop(next: TranscriptHeadState): void {
    copy = null;
    build = null;
    state = next;
  }

  // ---------- building ----------

  interface Build {
    copy: Copy;
    /** Terms up to this one (by FTS5's byte order) are in. */
    after: string;
    /** Terms listed (with their row and instance counts) but not read yet, from `next` on. */
    listed: [string, number, number][];
    next: number;
    started: number;
  }

  function startBuild(delayMs = 0): void {
    drop('building');
    later(buildSlice, delayMs);
  }

  function buildSlice(): void {
    if (db.inTransaction) return later(buildSlice);
    if (build === null) {
      // One statement, one snapshot: the rows the copy will hold and the rewrites it is true to.
      const s = db
        .prepare(
          `SELECT (SELECT n FROM transcript_rewrites WHERE id = 1) AS rewrites,
                  (SELECT coalesce(max(id), 0) FROM transcript) AS maxId,
                  (SELECT count(*) FROM transcript) AS rows`,
        )
        .get() as Stamp & { rows: number };
      if (s.rows > maxRows) {
        log?.info('transcript search copy not kept: too many rows', { rows: s.rows, maxRows });
        drop('off');
        return idle();
      }
      build = {
        copy: {
          terms: new Map(),
          lengths: new Uint32Array(s.maxId + 1),
          rows: s.rows,
          tokens: 0,
          maxId: s.maxId,
          rewrites: s.rewrites,
        },
        after: '',
        listed: [],
        next: 0,
        started: performance.now(),
      };
    }
    const b = build;
    const until = performance.now() + sliceMs;
    do {
      // Each term is listed once: fts5vocab's row table counts a term by walking its postings.
      if (b.next >= b.listed.length) {
        b.listed = termsAfterStmt.all(b.after) as [string, number, number][];
        b.next = 0;
        if (b.listed.length === 0) return finishBuild(b);
      }
      // Terms up to `upto` hold about INSTANCES_PER_READ instances (at least one term).
      let upto = b.after;
      let instances = 0;
      while (b.next < b.listed.length) {
        const [term, docs, count] = b.listed[b.next]!;
        if (instances > 0 && instances + count > INSTANCES_PER_READ) break;
        instances += count;
        upto = term;
        b.copy.terms.set(term, { ids: new Int32Array(docs), tf: new Uint16Array(docs), n: 0 });
        b.next++;
      }
      const { copy: c } = b;
      for (const [term, doc] of instancesStmt.iterate(b.after, upto, c.maxId) as Iterable<
        [string, number]
      >) {
        addOccurrence(c, term, doc);
      }
      b.after = upto;
    } while (performance.now() < until);
    later(buildSlice);
  }

  function finishBuild(b: Build): void {
    const now = stamp();
    if (now.rewrites !== b.copy.rewrites) {
      // Rows were deleted or changed meanwhile: what was read may hold them.
      startBuild(REBUILD_DELAY_MS);
      return;
    }
    for (const [term, p] of b.copy.terms) if (p.n === 0) b.copy.terms.delete(term);
    build = null;
    copy = b.copy;
    state = 'ready';
    log?.info('transcript search copy ready', {
      rows: b.copy.rows,
      terms: b.copy.terms.size,
      megabytes: Math.round(bytesOf(b.copy) / 1e5) / 10,
      ms: Math.round(performance.now() - b.started),
    });
    // Rows added while it was built are caught up by the next search or here.
    catchUp();
  }

  // ---------- following appended rows ----------

  /** Indexes rows (copy.maxId, upTo], at most `limit`; false when it did not reach upTo. */
  function append(c: Copy, upTo: number, limit: number): boolean {
    const rows = newRowsStmt.all(c.maxId, upTo, limit) as { id: number; content: string }[];
    if (rows.length === 0) {
      c.maxId = upTo;
      return true;
    }
    const last = rows[rows.length - 1]!.id;
    if (c.rows + rows.length > maxRows) throw new TooLarge();
    const instances = tokenize(rows);
    if (c.lengths.length <= last) c.lengths = grown(c.lengths, last + 1);
    for (const [term, doc] of instances) {
      addOccurrence(c, term, doc);
    }
    c.rows += rows.length;
    const done = rows.length < limit;
    c.maxId = done ? upTo : last;
    return done;
  }

  function catchUp(): void {
    const c = copy;
    if (c === null || state !== 'ready') return idle();
    if (db.inTransaction) return later(catchUp);
    const until = performance.now() + sliceMs;
    do {
      const s = stamp();
      if (s.rewrites !== c.rewrites || s.maxId < c.maxId) return startBuild();
      try {
        if (append(c, s.maxId, APPEND_BATCH_ROWS)) return idle();
      } catch (err) {
        if (!(err instanceof TooLarge)) throw err;
        log?.info('transcript search copy dropped: too many rows', { maxRows });
        drop('off');
        return idle();
      }
    } while (performance.now() < until);
    later(catchUp);
  }

  /** FTS5's tokens of each row, (term, row id) per occurrence, grouped by term, ids ascending. */
  function tokenize(rows: readonly { id: number; content: string }[]): [string, number][] {
    return words.transaction(() => {
      for (const r of rows) putWords.run(r.id, r.content);
      const out = readWords.all() as [string, number][];
      clearWords.run();
      return out;
    })();
  }

  /** The single token FTS5 makes of a query word; null for none or several (a phrase). */
  function tokenOf(word: string): string | null {
    const known = wordCache.get(word);
    if (known !== undefined) return known;
    const t = tokenize([{ id: 1, content: word }]);
    const token = t.length === 1 ? t[0]![0] : null;
    if (wordCache.size >= WORD_CACHE_ENTRIES) wordCache.clear();
    wordCache.set(word, token);
    return token;
  }

  // ---------- answering ----------

  function head(match: string, inner: number, window: number | null): HeadHit[] | null {
    const c = copy;
    if (c === null || state !== 'ready' || busy || db.inTransaction) return null;
    const query = parseMatch(match);
    if (query === null) return null;
    const tokens: string[] = [];
    for (const phrase of query.phrases) {
      const token = tokenOf(phrase);
      if (token === null) return null;
      tokens.push(token);
    }
    const s = stamp();
    if (s.rewrites !== c.rewrites || s.maxId < c.maxId) {
      startBuild();
      return null;
    }
    if (s.maxId > c.maxId) {
      try {
        if (!append(c, s.maxId, INLINE_APPEND_ROWS)) {
          later(catchUp);
          return null;
        }
      } catch (err) {
        if (!(err instanceof TooLarge)) throw err;
        drop('off');
        return null;
      }
    }
    return rank(
      c,
      tokens.map((t) => c.terms.get(t) ?? NO_POSTINGS),
      query.groups,
      inner,
      window ?? Number.POSITIVE_INFINITY,
    );
  }

  /** Between searches: a rewrite drops the copy, appended rows are caught up when quiet. */
  function check(): void {
    const c = copy;
    if (c === null || state !== 'ready' || busy || db.inTransaction) return;
    try {
      const s = stamp();
      if (s.rewrites !== c.rewrites || s.maxId < c.maxId) startBuild();
      else if (s.maxId > c.maxId) later(catchUp);
    } catch (err) {
      fail(err);
    }
  }
  const checker = setInterval(check, options.checkMs ?? CHECK_MS);
  checker.unref();

  later(buildSlice);
  return {
    head(match, inner, window) {
      if (state !== 'ready') return null;
      try {
        return head(match, inner, window);
      } catch (err) {
        fail(err);
        return null;
      }
    },
    state: () => state,
    size: () =>
      copy === null
        ? { rows: 0, terms: 0, bytes: 0 }
        : { rows: copy.rows, terms: copy.terms.size, bytes: bytesOf(copy) },
    settled: () =>
      busy ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve(),
    close() {
      clearInterval(checker);
      drop('closed');
      words.close();
      idle();
    },
  };
}

class TooLarge extends Error {}

/** One occurrence of `term` in row `doc`: the row's length and the term's postings. */
function addOccurrence(c: Copy, term: string, doc: number): void {
  c.lengths[doc] = (c.lengths[doc] as number) + 1;
  c.tokens++;
  let p = c.terms.get(term);
  if (p === undefined) {
    p = { ids: new Int32Array(4), tf: new Uint16Array(4), n: 0 };
    c.terms.set(term, p);
  }
  addInstance(p, doc);
}

function addInstance(p: Postings, doc: number): void {
  const n = p.n;
  if (n > 0 && p.ids[n - 1] === doc) {
    if ((p.tf[n - 1] as number) < 0xffff) p.tf[n - 1] = (p.tf[n - 1] as number) + 1;
    return;
  }
  if (n === p.ids.length) {
    p.ids = grown(p.ids, Math.max(4, n * 2));
    p.tf = grown(p.tf, p.ids.length);
  }
  p.ids[n] = doc;
  p.tf[n] = 1;
  p.n = n + 1;
}

function grown<T extends Int32Array | Uint16Array | Uint32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

function bytesOf(c: Copy): number {
  let bytes = c.lengths.byteLength;
  for (const p of c.terms.values()) bytes += p.ids.byteLength + p.tf.byteLength;
  return bytes;
}

/**
 * A MATCH expression of the two shapes store/search.ts writes: quoted words joined by OR, some
 * of them in AND pairs (`"tea" OR ("green" AND "drink")`). Each quoted word is a phrase; each
 * group is matched when all its phrases are in a row. null for anything else.
 */
export function parseMatch(match: string): { phrases: string[]; groups: number[][] } | null {
  const phrases: string[] = [];
  const groups: number[][] = [];
  let i = 0;
  const quoted = (): number | null => {
    if (match[i] !== '"') return null;
    let word = '';
    for (i++; ;) {
      if (i >= match.length) return null;
      const ch = match[i] as string;
      if (ch === '"') {
        if (match[i + 1] !== '"') break;
        word += '"';
        i += 2;
        continue;
      }
      word += ch;
      i++;
    }
    i++;
    if (match[i] === '*') return null;
    phrases.push(word);
    return phrases.length - 1;
  };
  const take = (s: string): boolean => {
    if (!match.startsWith(s, i)) return false;
    i += s.length;
    return true;
  };
  for (;;) {
    if (take('(')) {
      const a = quoted();
      if (a === null || !take(' AND ')) return null;
      const b = quoted();
      if (b === null || !take(')')) return null;
      groups.push([a, b]);
    } else {
      const a = quoted();
      if (a === null) return null;
      groups.push([a]);
    }
    if (i === match.length) break;
    if (!take(' OR ')) return null;
  }
  return { phrases, groups };
}

/**
 * The newest `window` rows matching any group, the best `inner` of them by bm25(), best first
 * (on equal scores the newer row first). The postings are walked from their ends in step.
 */
function rank(
  c: Copy,
  lists: readonly Postings[],
  groups: readonly number[][],
  inner: number,
  window: number,
): HeadHit[] {
  const n = lists.length;
  const idf = new Float64Array(n);
  const at = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const hits = (lists[i] as Postings).n;
    const v = Math.log((c.rows - hits + 0.5) / (hits + 0.5));
    idf[i] = v <= 0 ? 1e-6 : v;
    at[i] = hits - 1;
  }
  const averageLength = c.rows > 0 ? c.tokens / c.rows : 1;
  const present = new Uint8Array(n);
  const freq = new Float64Array(n);
  const heapScore = new Float64Array(inner);
  const heapId = new Int32Array(inner);
  let size = 0;
  let seen = 0;
  while (seen < window) {
    let id = -1;
    for (let i = 0; i < n; i++) {
      const j = at[i] as number;
      if (j >= 0) id = Math.max(id, (lists[i] as Postings).ids[j] as number);
    }
    if (id < 0) break;
    for (let i = 0; i < n; i++) {
      const p = lists[i] as Postings;
      const j = at[i] as number;
      if (j >= 0 && p.ids[j] === id) {
        present[i] = 1;
        freq[i] = p.tf[j] as number;
        at[i] = j - 1;
      } else present[i] = 0;
    }
    // FTS5 reports a phrase's instances only where the part of the expression holding it
    // matched ("dog" of ("dog" AND "walk") counts in no row without "walk").
    let matched = false;
    for (const g of groups) {
      const all = g.every((p) => present[p] === 1);
      if (all) matched = true;
      else for (const p of g) present[p] = 0;
    }
    if (!matched) continue;
    seen++;
    const norm = K1 * (1 - B + (B * (c.lengths[id] as number)) / averageLength);
    let score = 0;
    for (let i = 0; i < n; i++) {
      if (present[i] === 1) {
        const f = freq[i] as number;
        score += ((idf[i] as number) * (f * (K1 + 1))) / (f + norm);
      }
    }
    // A min-heap of the best `inner`; rows come newest first, so on equal scores the newer stays.
    if (size < inner) {
      let j = size++;
      while (j > 0) {
        const up = (j - 1) >> 1;
        if ((heapScore[up] as number) <= score) break;
        heapScore[j] = heapScore[up] as number;
        heapId[j] = heapId[up] as number;
        j = up;
      }
      heapScore[j] = score;
      heapId[j] = id;
    } else if (inner > 0 && score > (heapScore[0] as number)) {
      let j = 0;
      for (;;) {
        let child = 2 * j + 1;
        if (child >= size) break;
        if (child + 1 < size && (heapScore[child + 1] as number) < (heapScore[child] as number))
          child++;
        if ((heapScore[child] as number) >= score) break;
        heapScore[j] = heapScore[child] as number;
        heapId[j] = heapId[child] as number;
        j = child;
      }
      heapScore[j] = score;
      heapId[j] = id;
    }
  }
  const out: HeadHit[] = [];
  for (let i = 0; i < size; i++)
    out.push({ id: heapId[i] as number, rank: -(heapScore[i] as number) });
  return out.sort((a, b) => a.rank - b.rank || b.id - a.id);
}
