// The transcript search's head query (BM25 over the most recent matches of the query's terms,
// store/search.ts TRANSCRIPT_TOP_RECENT_SQL) against the same ranking done in memory, from
// postings built out of FTS5's own tokens (its fts5vocab `instance` table). The head query is
// the largest single cost of a memory request on the HTTP thread (issue 11: ~20-27 % of it
// under load at 10k rows, ~2 ms of a request at 100k), so this measures what keeping such an
// index in memory would give before the engine is changed: the time per query of each, the
// memory of the postings, the time to build them, and how far the two rankings agree.
//
//   node --disable-warning=ExperimentalWarning bench/fts-head-compare.ts [rows ...]
//
// Rows are LoCoMo turns (the bench file when present, else skipped), questions are LoCoMo
// questions through the engine's own term extraction (queryTerms), every term OR-ed.
import { defaultLocomoPath, locomoTurnsAndQuestions } from './locomo.ts';
import { existsSync } from 'node:fs';
import type { Db } from '../src/main/engine/store/db.ts';
import { recordTurns } from '../src/main/engine/store/transcript.ts';
import { queryTerms } from '../src/main/engine/text/text.ts';
import { tempDatabase } from '../test/helpers/temp-db.ts';

/** As the engine's windowed head query: the newest WINDOW matches, the best INNER of them. */
const WINDOW = 4_000;
const INNER = 180;
/** FTS5's bm25() constants (https://www.sqlite.org/fts5.html#the_bm25_function). */
const K1 = 1.2;
const B = 0.75;

interface Postings {
  /** Row ids, ascending. */
  ids: Int32Array;
  /** How often the term occurs in each row. */
  tf: Uint8Array;
}

interface MemoryIndex {
  terms: Map<string, Postings>;
  /** Tokens per row, by row id. */
  length: Uint16Array;
  rows: number;
  averageLength: number;
  bytes: number;
}

/** Postings from the stemmed transcript index, term by term (fts5vocab gives them in order). */
function buildIndex(db: Db): MemoryIndex {
  db.exec(
    `CREATE VIRTUAL TABLE temp.head_vocab USING fts5vocab(main, transcript_stem_fts, instance)`,
  );
  const maxId = (
    db.prepare('SELECT coalesce(max(id), 0) AS m FROM transcript').get() as { m: number }
  ).m;
  const length = new Uint16Array(maxId + 1);
  const terms = new Map<string, Postings>();
  let term = '';
  let ids: number[] = [];
  let tf: number[] = [];
  const close = () => {
    if (term !== '') terms.set(term, { ids: Int32Array.from(ids), tf: Uint8Array.from(tf) });
  };
  const rows = db.prepare('SELECT term, doc FROM temp.head_vocab').raw();
  for (const [t, doc] of rows.iterate() as Iterable<[string, number]>) {
    length[doc] = (length[doc] as number) + 1;
    if (t !== term) {
      close();
      term = t;
      ids = [];
      tf = [];
    }
    const n = ids.length;
    if (n > 0 && ids[n - 1] === doc) tf[n - 1] = (tf[n - 1] as number) + 1;
    else {
      ids.push(doc);
      tf.push(1);
    }
  }
  close();
  db.exec('DROP TABLE temp.head_vocab');
  let count = 0;
  let tokens = 0;
  for (const l of length) {
    if (l > 0) count++;
    tokens += l;
  }
  let bytes = length.byteLength;
  for (const p of terms.values()) bytes += p.ids.byteLength + p.tf.byteLength;
  return { terms, length, rows: count, averageLength: tokens / Math.max(1, count), bytes };
}

/**
 * The newest WINDOW rows holding any of the stems, the INNER best by BM25, best first: the
 * postings are walked from their ends in step, and a min-heap keeps the best INNER.
 */
function memoryHead(index: MemoryIndex, stems: readonly string[]): number[] {
  const lists: Postings[] = [];
  for (const s of stems) {
    const p = index.terms.get(s);
    if (p) lists.push(p);
  }
  const n = lists.length;
  if (n === 0) return [];
  const idf = new Float64Array(n);
  const at = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const df = (lists[i] as Postings).ids.length;
    idf[i] = Math.max(1e-6, Math.log((index.rows - df + 0.5) / (df + 0.5)));
    at[i] = df - 1;
  }
  const heapScore = new Float64Array(INNER);
  const heapId = new Int32Array(INNER);
  let size = 0;
  for (let seen = 0; seen < WINDOW; seen++) {
    let id = -1;
    for (let i = 0; i < n; i++) {
      const j = at[i] as number;
      if (j >= 0) id = Math.max(id, (lists[i] as Postings).ids[j] as number);
    }
    if (id < 0) break;
    const norm = K1 * (1 - B + (B * (index.length[id] as number)) / index.averageLength);
    let score = 0;
    for (let i = 0; i < n; i++) {
      const p = lists[i] as Postings;
      const j = at[i] as number;
      if (j >= 0 && p.ids[j] === id) {
        const f = p.tf[j] as number;
        score += ((idf[i] as number) * f * (K1 + 1)) / (f + norm);
        at[i] = j - 1;
      }
    }
    // Rows come newest first: on equal scores the one already kept (newer) stays.
    if (size < INNER) {
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
    } else if (score > (heapScore[0] as number)) {
      let j = 0;
      for (;;) {
        let c = 2 * j + 1;
        if (c >= size) break;
        if (c + 1 < size && (heapScore[c + 1] as number) < (heapScore[c] as number)) c++;
        if ((heapScore[c] as number) >= score) break;
        heapScore[j] = heapScore[c] as number;
        heapId[j] = heapId[c] as number;
        j = c;
      }
      heapScore[j] = score;
      heapId[j] = id;
    }
  }
  const order = Array.from({ length: size }, (_, i) => i);
  order.sort(
    (a, b) =>
      (heapScore[b] as number) - (heapScore[a] as number) ||
      (heapId[b] as number) - (heapId[a] as number),
  );
  return order.map((i) => heapId[i] as number);
}

/** Stems of words, by FTS5's own tokenizer (an in-memory table, no temporary file). */
function stemmer(db: Db): (word: string) => string | null {
  db.exec(`ATTACH DATABASE ':memory:' AS head_tok;
    CREATE VIRTUAL TABLE head_tok.words USING fts5 (w, tokenize = 'porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE head_tok.stems USING fts5vocab(words, instance);`);
  const clear = db.prepare('DELETE FROM head_tok.words');
  const put = db.prepare('INSERT INTO head_tok.words (w) VALUES (?)');
  const read = db.prepare('SELECT term FROM head_tok.stems');
  return (word) => {
    clear.run();
    put.run(word);
    return (read.get() as { term: string } | undefined)?.term ?? null;
  };
}

function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `mean ${mean.toFixed(3)} ms, p50 ${(s[s.length >> 1] as number).toFixed(3)}, p99 ${(s[Math.floor(s.length * 0.99)] as number).toFixed(3)}`;
}

function compare(rows: number, turns: string[], questions: string[]): void {
  const t = tempDatabase();
  try {
    const db = t.db;
    for (let done = 0; done < rows; done += 500) {
      recordTurns(
        db,
        Array.from({ length: Math.min(500, rows - done) }, (_, i) => ({
          agentId: 'bench',
          conversationId: `c${Math.floor((done + i) / 20)}`,
          messages: [
            {
              role: 'user' as const,
              content: turns[((done + i) * 7919) % turns.length] as string,
              createdAt: 1e12 + done + i,
            },
          ],
          distil: false,
        })),
      );
    }
    const started = performance.now();
    const index = buildIndex(db);
    const buildMs = performance.now() - started;
    const stem = stemmer(db);
    const head = db.prepare(
      `SELECT id FROM (SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
        WHERE transcript_stem_fts MATCH ? ORDER BY rowid DESC LIMIT ${WINDOW}) ORDER BY rank LIMIT ${INNER}`,
    );
    const queries = questions
      .slice(0, 300)
      .map((q) => {
        const terms = queryTerms(q);
        return {
          match: terms.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR '),
          stems: [...new Set(terms.flatMap((w) => stem(w) ?? []))],
        };
      })
      .filter((q) => q.stems.length > 0);
    const sqlMs: number[] = [];
    const memoryMs: number[] = [];
    let sameTop10 = 0;
    let overlap = 0;
    for (let pass = 0; pass < 3; pass++) {
      for (const q of queries) {
        const a = performance.now();
        const sqlIds = (head.all(q.match) as { id: number }[]).map((r) => r.id);
        const b = performance.now();
        const memoryIds = memoryHead(index, q.stems);
        const c = performance.now();
        if (pass < 2) continue; // warm-up
        sqlMs.push(b - a);
        memoryMs.push(c - b);
        const top10 = new Set(sqlIds.slice(0, 10));
        if (memoryIds.slice(0, 10).every((id) => top10.has(id))) sameTop10++;
        const all = new Set(sqlIds);
        overlap += memoryIds.filter((id) => all.has(id)).length / Math.max(1, sqlIds.length);
      }
    }
    console.log(
      `  ${rows} rows: built in ${Math.round(buildMs)} ms, ${index.terms.size} terms, postings ${(index.bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(`    FTS5 head query: ${summary(sqlMs)}`);
    console.log(`    in memory:       ${summary(memoryMs)}`);
    console.log(
      `    agreement over ${queries.length} questions: same top 10 ${sameTop10}, ` +
        `share of FTS5's ${INNER} also in memory's ${(overlap / queries.length).toFixed(3)}`,
    );
  } finally {
    t.cleanup();
  }
}

const path = defaultLocomoPath();
if (!existsSync(path)) {
  console.log('LoCoMo data not found: skipped.');
} else {
  const { turns, questions } = locomoTurnsAndQuestions(path);
  const sizes = process.argv.slice(2).map(Number);
  for (const rows of sizes.length > 0 ? sizes : [10_000, 100_000]) compare(rows, turns, questions);
}
