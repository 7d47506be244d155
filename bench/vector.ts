// Vector benchmarks (issue "Memory pipeline" item 4):
// - search latency of the in-memory index for one agent at 1k / 10k / 100k vectors of 384
//   dims (random, normalised; query embedding excluded). Target: p95 ≤ 10 ms at 100k.
// - rebuilding the index from the encrypted BLOBs at 50k (start-up cost).
// - embedding one query with the fixture model (cache disabled).
// Run alone: node bench/vector.ts; `npm run bench` calls runVectorBench().

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../src/main/engine/logger.ts';
import { openDatabase } from '../src/main/engine/store/open.ts';
import { insertPinned } from '../src/main/engine/store/pinned.ts';
import { upsertVectors, type VectorRecord } from '../src/main/engine/store/vectors.ts';
import { createEmbedder } from '../src/main/engine/vector/embedder.ts';
import {
  createVectorIndex,
  simdAvailable,
  type VectorIndexOptions,
} from '../src/main/engine/vector/vector-index.ts';
import { createVectorService } from '../src/main/engine/vector/vector-service.ts';
import { ensureTinyModel, TINY_MODEL_ID } from '../test/fixtures/tiny-model.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

const DIMS = 384;

function randomUnit(rand: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let sum = 0;
  for (let i = 0; i < dims; i++) {
    // Sum of uniforms ≈ gaussian: directions uniform enough for a benchmark.
    const x = rand() + rand() + rand() - 1.5;
    v[i] = x;
    sum += x * x;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < dims; i++) v[i] = (v[i] as number) * inv;
  return v;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function timeIt(
  runs: number,
  warmup: number,
  fn: (i: number) => void,
): { p50: number; p95: number } {
  for (let i = 0; i < warmup; i++) fn(i);
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn(i);
    t.push(performance.now() - start);
  }
  t.sort((a, b) => a - b);
  return { p50: percentile(t, 50), p95: percentile(t, 95) };
}

const ms = (x: number) => `${x.toFixed(2)} ms`;
const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

function searchBench(
  print: (line: string) => void,
  n: number,
  options: VectorIndexOptions,
  name: string,
  runs: number,
): { p50: number; p95: number } {
  const rand = seededRandom(n);
  const index = createVectorIndex(options);
  const built = performance.now();
  for (let id = 1; id <= n; id++) index.upsert('agent', 'transcript', id, randomUnit(rand, DIMS));
  const buildMs = performance.now() - built;
  const queries = Array.from({ length: 16 }, () => randomUnit(rand, DIMS));
  const r = timeIt(runs, 5, (i) =>
    index.search('agent', 'transcript', queries[i % queries.length] as Float32Array, 10),
  );
  print(
    `vector search ${label(n).padStart(4)} × ${DIMS} (${name}): p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  (index build ${Math.round(buildMs)} ms)`,
  );
  return r;
}

async function rebuildBench(print: (line: string) => void, n: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-vectors-'));
  const db = openDatabase({ path: join(dir, 'memory.sqlite'), key: randomBytes(32) });
  try {
    const rand = seededRandom(7);
    const model = 'bench/model';
    const writeStart = performance.now();
    const batch: VectorRecord[] = [];
    const flush = () => {
      upsertVectors(db, batch);
      batch.length = 0;
    };
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        const rowId = insertPinned(
          db,
          {
            agentId: 'agent',
            content: `fact ${i}`,
            salience: 0.5,
            tags: [],
            pinnedByUser: false,
            sourceEpisodeId: null,
          },
          0,
        );
        batch.push({
          kind: 'pinned',
          rowId,
          agentId: 'agent',
          model,
          embedding: randomUnit(rand, DIMS),
          createdAt: 0,
        });
        if (batch.length === 1000) flush();
      }
      flush();
    })();
    const writeMs = performance.now() - writeStart;
    // The service's loadIndex (what start-up runs); an embedder that is not loaded has no
    // dims yet, so every stored vector of the model is taken.
    const embedder = createEmbedder({
      backend: 'none',
      modelId: model,
      cacheDir: dir,
      allowRemoteModels: false,
      logger: silentLogger,
    });
    const service = createVectorService({
      db,
      embedder,
      index: createVectorIndex(),
      logger: silentLogger,
    });
    const start = performance.now();
    const loaded = service.loadIndex();
    print(
      `index rebuild from encrypted BLOBs: ${label(loaded)} × ${DIMS} in ${Math.round(performance.now() - start)} ms (writing them took ${Math.round(writeMs)} ms)`,
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function embedBench(print: (line: string) => void): Promise<void> {
  const root = await ensureTinyModel();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-models-'));
  const embedder = createEmbedder({
    backend: 'transformers',
    modelId: TINY_MODEL_ID,
    cacheDir: dir,
    localModelPath: root,
    allowRemoteModels: false,
    logger: silentLogger,
    queryCacheSize: 0,
  });
  try {
    const loadStart = performance.now();
    await embedder.start();
    const loadMs = performance.now() - loadStart;
    if (!embedder.isReady()) {
      print(
        `embed query (fixture model): model failed to load: ${embedder.state().error ?? 'unknown'}`,
      );
      return;
    }
    const texts = Array.from(
      { length: 55 },
      (_, i) => `what did we decide about the database migration, question ${i}?`,
    );
    for (const t of texts.slice(0, 5)) await embedder.embedQuery(t);
    const times: number[] = [];
    for (const t of texts.slice(5)) {
      const start = performance.now();
      await embedder.embedQuery(t);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    print(
      `embed one query (fixture ${TINY_MODEL_ID}, ${embedder.state().dims} dims, no cache): p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  (model load ${Math.round(loadMs)} ms)`,
    );
  } finally {
    await embedder.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runVectorBench(print: (line: string) => void): Promise<void> {
  print(
    `vector index: WebAssembly SIMD ${simdAvailable() ? 'available' : 'NOT available (exact JS scan only)'}`,
  );
  for (const n of [1_000, 10_000, 100_000]) {
    const r = searchBench(print, n, {}, 'default', n === 100_000 ? 100 : 200);
    if (n === 100_000) print(`  target p95 ≤ 10 ms at 100k: ${r.p95 <= 10 ? 'met' : 'MISSED'}`);
  }
  searchBench(print, 10_000, { simd: false }, 'exact JS scan, for comparison', 30);
  await rebuildBench(print, 50_000);
  await embedBench(print);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await runVectorBench((line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `(vector bench took ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}
