// The transcript search's head query (BM25 over the most recent matches of the query's terms,
// store/search.ts TRANSCRIPT_TOP_RECENT_SQL) in FTS5 against the same ranking from the copy in
// memory (store/transcript-head.ts). The head query was the largest single cost of a memory
// request on the HTTP thread (issue 11: ~20-27 % of it under load at 10k rows, ~2 ms of a
// request at 100k); this measures the time per query of each, the memory of the copy, the
// time to build it (in one go here; the engine builds it in slices), and how far the two
// rankings agree.
//
//   node --disable-warning=ExperimentalWarning bench/fts-head-compare.ts [rows ...]
//
// Rows are LoCoMo turns (the bench file when present, else skipped), questions are LoCoMo
// questions through the engine's own term extraction (queryTerms), every term OR-ed.
import { defaultLocomoPath, locomoTurnsAndQuestions } from './locomo.ts';
import { existsSync } from 'node:fs';
import { recordTurns } from '../src/main/engine/store/transcript.ts';
import { buildMatchExpression, queryTerms } from '../src/main/engine/text/text.ts';
import {
  createTranscriptHeadIndex,
  type TranscriptHeadIndex,
} from '../src/main/engine/store/transcript-head.ts';
import { tempDatabase } from '../test/helpers/temp-db.ts';

/** As the engine's windowed head query: the newest WINDOW matches, the best INNER of them. */
const WINDOW = 4_000;
const INNER = 180;

function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `mean ${mean.toFixed(3)} ms, p50 ${(s[s.length >> 1] as number).toFixed(3)}, p99 ${(s[Math.floor(s.length * 0.99)] as number).toFixed(3)}`;
}

async function compare(rows: number, turns: string[], questions: string[]): Promise<void> {
  const t = tempDatabase();
  let index: TranscriptHeadIndex | undefined;
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
    index = createTranscriptHeadIndex(db, { sliceMs: 1e9 });
    await index.settled();
    const buildMs = performance.now() - started;
    const size = index.size();
    const head = db.prepare(
      `SELECT id FROM (SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
        WHERE transcript_stem_fts MATCH ? ORDER BY rowid DESC LIMIT ${WINDOW}) ORDER BY rank LIMIT ${INNER}`,
    );
    const queries = questions
      .slice(0, 300)
      .map((q) => buildMatchExpression(queryTerms(q)))
      .filter((m): m is string => m !== null);
    const sqlMs: number[] = [];
    const memoryMs: number[] = [];
    let sameTop10 = 0;
    let overlap = 0;
    for (let pass = 0; pass < 3; pass++) {
      for (const q of queries) {
        const a = performance.now();
        const sqlIds = (head.all(q) as { id: number }[]).map((r) => r.id);
        const b = performance.now();
        const memoryIds = (index.head(q, INNER, WINDOW) ?? []).map((h) => h.id);
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
      `  ${rows} rows: built in ${Math.round(buildMs)} ms, ${size.terms} terms, postings ${(size.bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(`    FTS5 head query: ${summary(sqlMs)}`);
    console.log(`    in memory:       ${summary(memoryMs)}`);
    console.log(
      `    agreement over ${queries.length} questions: same top 10 ${sameTop10}, ` +
        `share of FTS5's ${INNER} also in memory's ${(overlap / queries.length).toFixed(3)}`,
    );
  } finally {
    index?.close();
    t.cleanup();
  }
}

const path = defaultLocomoPath();
if (!existsSync(path)) {
  console.log('LoCoMo data not found: skipped.');
} else {
  const { turns, questions } = locomoTurnsAndQuestions(path);
  const sizes = process.argv.slice(2).map(Number);
  for (const rows of sizes.length > 0 ? sizes : [10_000, 100_000])
    await compare(rows, turns, questions);
}
