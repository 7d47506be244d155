// The two lanes of the vector service on the real encrypted database: static word vectors
// (the real asset) serve until the sentence model (the tiny fixture model) is ready and has
// re-embedded every row; a failed model load is retried with backoff and on request.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTinyModel, TINY_MODEL_ID } from '../../../../test/fixtures/tiny-model.ts';
import { addFact } from '../../../../test/helpers/memory-rows.ts';
import { tinyEmbedderOptions } from '../../../../test/helpers/tiny-embedder.ts';
import { ensureWordVectorAsset } from '../../../../test/helpers/word-vectors.ts';
import { fixedClock } from '../clock.ts';
import { silentLogger } from '../logger.ts';
import type { Db } from '../store/db.ts';
import { openDatabase } from '../store/open.ts';
import { countVectors } from '../store/vectors.ts';
import { createEmbedder, type Embedder } from './embedder.ts';
import { createVectorIndex } from './vector-index.ts';
import { createVectorService } from './vector-service.ts';
import { createWordVectorEmbedder, type WordVectorEmbedder } from './word-vector-embedder.ts';
import { WORD_VECTORS_MODEL_ID } from './word-vectors.ts';

let tmp: string;
let modelRoot: string;
let assetPath: string;
const open: Db[] = [];
const closeLater: Embedder[] = [];
const clock = fixedClock(1_700_000_000_000);

beforeAll(async () => {
  modelRoot = await ensureTinyModel();
  assetPath = await ensureWordVectorAsset();
  tmp = mkdtempSync(join(tmpdir(), 'cairn-fallback-'));
});

afterEach(async () => {
  vi.useRealTimers();
  for (const db of open.splice(0)) db.close();
  for (const e of closeLater.splice(0)) await e.close();
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function freshDb(): Db {
  const db = openDatabase({
    path: join(mkdtempSync(join(tmp, 'db-')), 'memory.sqlite'),
    key: randomBytes(32),
  });
  open.push(db);
  return db;
}

function sentenceModel(modelId = TINY_MODEL_ID): Embedder {
  const e = createEmbedder(tinyEmbedderOptions(modelRoot, join(tmp, 'models'), { modelId }));
  closeLater.push(e);
  return e;
}

function wordVectors(): WordVectorEmbedder {
  const e = createWordVectorEmbedder({ assetPath: async () => assetPath, logger: silentLogger });
  closeLater.push(e);
  return e;
}

const fact = (db: Db, agentId: string, content: string) =>
  addFact(db, { agentId, content }, clock.now());

const FACTS = [
  'I switched to green tea last winter',
  'My manager is Priya Raman',
  'I moved to Lisbon in March',
  'I play the violin in a string quartet',
];

describe('vector service with the word-vector fallback', () => {
  it('searches by word meaning before the sentence model, which then takes over', async () => {
    const db = freshDb();
    const ids = FACTS.map((t) => fact(db, 'alice', t));
    const primary = sentenceModel();
    const fallback = wordVectors();
    const svc = createVectorService({
      db,
      embedder: primary,
      index: createVectorIndex(),
      fallback,
      logger: silentLogger,
      clock,
    });
    expect(svc.isReady()).toBe(false);
    expect(svc.state().active).toBe('none');

    await fallback.start();
    expect(await svc.backfill()).toBe(FACTS.length);
    expect(svc.state()).toMatchObject({ active: 'word_vectors', wordVectors: { status: 'ready' } });
    expect(svc.activeModel()).toBe(WORD_VECTORS_MODEL_ID);
    expect(countVectors(db, { model: WORD_VECTORS_MODEL_ID })).toBe(FACTS.length);
    const [tea] = await svc.search('alice', 'pinned', "What's my usual beverage?", 1);
    expect(tea?.id).toBe(ids[0]);
    const [boss] = await svc.search('alice', 'pinned', 'Who is my boss?', 1);
    expect(boss?.id).toBe(ids[1]);
    // Nothing of another agent, and no direction for a query without a known word.
    expect(await svc.search('bob', 'pinned', 'tea', 3)).toEqual([]);
    expect(await svc.search('alice', 'pinned', 'what is it', 3)).toEqual([]);

    // A row written now is searchable at once with the serving lane.
    const late = fact(db, 'alice', 'My dog Rex loves the beach');
    await svc.indexRows('pinned', [
      { id: late, agentId: 'alice', text: 'My dog Rex loves the beach' },
    ]);
    expect((await svc.search('alice', 'pinned', 'puppy', 1))[0]?.id).toBe(late);

    // The sentence model becomes ready: it re-embeds every row, then serves alone.
    await primary.start();
    expect(svc.state().active).toBe('word_vectors'); // not before its backfill
    expect(await svc.backfill()).toBe(FACTS.length + 1);
    expect(svc.state().active).toBe('sentence_model');
    expect(svc.activeModel()).toBe(TINY_MODEL_ID);
    expect(countVectors(db, { model: WORD_VECTORS_MODEL_ID })).toBe(0);
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(FACTS.length + 1);
    const hits = await svc.search('alice', 'pinned', 'green tea', 5);
    expect(hits).toHaveLength(FACTS.length + 1);
  });

  it('never replaces the sentence model vectors with static ones after a restart', async () => {
    const db = freshDb();
    for (const t of FACTS) fact(db, 'alice', t);
    const ready = sentenceModel();
    await ready.start();
    await createVectorService({
      db,
      embedder: ready,
      index: createVectorIndex(),
      logger: silentLogger,
      clock,
    }).backfill();
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(FACTS.length);

    // Next start: the model is not loaded yet, the word vectors are.
    const fallback = wordVectors();
    await fallback.start();
    const svc = createVectorService({
      db,
      embedder: sentenceModel(),
      index: createVectorIndex(),
      fallback,
      logger: silentLogger,
      clock,
    });
    const newer = fact(db, 'alice', 'I started drinking oat milk');
    expect(await svc.backfill()).toBe(1); // only the row without any vector
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(FACTS.length);
    expect(countVectors(db, { model: WORD_VECTORS_MODEL_ID })).toBe(1);
    expect((await svc.search('alice', 'pinned', 'milk', 5)).map((h) => h.id)).toEqual([newer]);
  });

  it('retries a failed model load with exponential backoff, and at once on request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const db = freshDb();
    fact(db, 'alice', 'I switched to green tea');
    const missing = sentenceModel('cairn-test/not-on-this-machine');
    const abort = new AbortController();
    const svc = createVectorService({
      db,
      embedder: missing,
      index: createVectorIndex(),
      fallback: wordVectors(),
      logger: silentLogger,
      clock,
      retry: { initialDelayMs: 1000, maxDelayMs: 4000, maxAttempts: 4 },
    });
    await svc.start(abort.signal);
    let st = svc.state();
    expect(st).toMatchObject({ status: 'error', active: 'word_vectors' });
    expect(st.retry).toEqual({ attempts: 1, maxAttempts: 4, nextAt: clock.now() + 1000 });
    expect(st.error).toMatch(/not on this machine/);
    // The static vectors serve meanwhile.
    expect(await svc.search('alice', 'pinned', 'beverage', 1)).toHaveLength(1);

    // Each failed attempt doubles the delay, up to the cap.
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = svc.state().retry!.nextAt! - clock.now();
      delays.push(before);
      await vi.advanceTimersByTimeAsync(before);
    }
    expect(delays).toEqual([1000, 2000, 4000]);
    st = svc.state();
    expect(st.retry).toEqual({ attempts: 4, maxAttempts: 4, nextAt: clock.now() + 4000 });
    await vi.advanceTimersByTimeAsync(4000);
    expect(svc.state().retry).toEqual({ attempts: 4, maxAttempts: 4, nextAt: null }); // gave up

    // The button: an attempt now, and a fresh backoff series after it fails.
    await svc.retryNow();
    expect(svc.state().retry).toEqual({ attempts: 1, maxAttempts: 4, nextAt: clock.now() + 1000 });

    // Stopping the engine cancels the planned attempt.
    abort.abort();
    expect(svc.state().retry?.nextAt).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
