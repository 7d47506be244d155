import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureTinyModel,
  TINY_MODEL_DIMS,
  TINY_MODEL_ID,
} from '../../../../test/fixtures/tiny-model.ts';
import { committed } from '../../../../test/helpers/committed.ts';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { tinyEmbedderOptions } from '../../../../test/helpers/tiny-embedder.ts';
import { trashRows } from '../../../../test/helpers/trash-rows.ts';
import { fixedClock } from '../clock.ts';
import { silentLogger } from '../logger.ts';
import type { Db } from '../store/db.ts';
import { openDatabase } from '../store/open.ts';
import { recordTurn } from '../store/transcript.ts';
import {
  countVectors,
  deleteVector,
  loadVectors,
  missingVectorRowIds,
  upsertVectors,
  type VectorRecord,
} from '../store/vectors.ts';
import { createEmbedder, type Embedder } from './embedder.ts';
import { createVectorIndex } from './vector-index.ts';
import { createVectorService, type VectorService } from './vector-service.ts';

let modelRoot: string;
let tmp: string;
let embedder: Embedder;
const open: Db[] = [];

beforeAll(async () => {
  modelRoot = await ensureTinyModel();
  tmp = mkdtempSync(join(tmpdir(), 'cairn-vectors-'));
  embedder = makeEmbedder(TINY_MODEL_ID, modelRoot);
  await embedder.start();
  expect(embedder.isReady()).toBe(true);
});

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

afterAll(async () => {
  await embedder.close();
  rmSync(tmp, { recursive: true, force: true });
});

function makeEmbedder(modelId: string, localModelPath: string): Embedder {
  return createEmbedder(tinyEmbedderOptions(localModelPath, join(tmp, 'models'), { modelId }));
}

/** A real encrypted database (SQLCipher) in a temporary file, fully migrated. */
function freshDb(): { db: Db; path: string } {
  const path = join(mkdtempSync(join(tmp, 'db-')), 'memory.sqlite');
  const db = openDatabase({ path, key: randomBytes(32) });
  open.push(db);
  return { db, path };
}

const clock = fixedClock(1_700_000_000_000);

function service(db: Db, e: Embedder = embedder, index = createVectorIndex()): VectorService {
  return createVectorService({
    db,
    embedder: e,
    index,
    logger: silentLogger,
    clock,
    backfillBatchSize: 3,
  });
}

const pinned = (db: Db, agentId: string, content: string) =>
  addFact(db, { agentId, content }, clock.now());

const episode = (db: Db, agentId: string, summary: string) =>
  addEpisode(db, { agentId, summary }, clock.now());

const ALICE_FACTS = [
  'Alice drinks black coffee every morning',
  'Alice lives in Paris with her cat',
  'Alice prefers Python over Java for scripts',
  'Alice plays tennis on Saturday',
];

describe('vector service', () => {
  it('indexes rows into the encrypted vectors table and the index, and searches per agent', async () => {
    const { db, path } = freshDb();
    const svc = service(db);
    const aliceIds = ALICE_FACTS.map((t) => pinned(db, 'alice', t));
    const bobId = pinned(db, 'bob', 'Bob drinks black coffee every morning too');

    await svc.indexRows(
      'pinned',
      ALICE_FACTS.map((text, i) => ({ id: aliceIds[i] as number, agentId: 'alice', text })),
    );
    // New rows are searchable at once; their vectors are stored with the next commit.
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(0);
    expect(await svc.search('alice', 'pinned', ALICE_FACTS[1] as string, 1)).toHaveLength(1);
    await committed(db);
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(4);
    await svc.indexRows('pinned', [
      { id: bobId, agentId: 'bob', text: 'Bob drinks black coffee every morning too' },
    ]);
    await committed(db);
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(5);
    expect(countVectors(db, { model: TINY_MODEL_ID, agentId: 'alice', kind: 'pinned' })).toBe(4);

    // The stored BLOB is the embedding, tagged with model and dims.
    const rows = [...loadVectors(db, { model: TINY_MODEL_ID, agentId: 'alice' })];
    expect(rows).toHaveLength(4);
    const [direct] = await embedder.embed([ALICE_FACTS[0] as string]);
    const first = rows.find((r) => r.rowId === aliceIds[0]);
    expect(first).toMatchObject({
      kind: 'pinned',
      agentId: 'alice',
      dims: TINY_MODEL_DIMS,
      createdAt: clock.now(),
    });
    expect(Array.from(first?.embedding ?? [])).toEqual(Array.from(direct as Float32Array));

    const hits = await svc.search(
      'alice',
      'pinned',
      'what coffee does Alice drink in the morning',
      2,
    );
    expect(hits[0]?.id).toBe(aliceIds[0]);
    expect(hits[0]?.score).toBeGreaterThan(0.3);
    // Bob's near-identical fact never shows up for Alice, and the reverse.
    expect(hits.map((h) => h.id)).not.toContain(bobId);
    const bobHits = await svc.search('bob', 'pinned', 'Alice lives in Paris', 10);
    expect(bobHits.map((h) => h.id)).toEqual([bobId]);
    expect(await svc.search('carol', 'pinned', 'coffee', 5)).toEqual([]);
    expect(await svc.search('alice', 'episode', 'coffee', 5)).toEqual([]);

    // Everything lives inside the encrypted file: no plaintext SQLite header.
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(path).subarray(0, 15).toString('latin1')).not.toBe('SQLite format 3');
  });

  it('backfills rows that have no vector yet, in batches, and then has nothing left', async () => {
    const { db } = freshDb();
    const svc = service(db);
    const p = ALICE_FACTS.map((t) => pinned(db, 'alice', t));
    pinned(db, 'alice', '   '); // blank: never embedded, must not stall the backfill
    const e1 = episode(db, 'alice', 'We discussed the database migration plan for the release');
    episode(db, 'bob', 'Bob planned a trip to Tokyo in April');
    const turn = recordTurn(db, {
      agentId: 'alice',
      conversationId: 'c1',
      messages: [
        {
          role: 'user',
          content: 'Remind me what we decided about the deploy',
          createdAt: clock.now(),
        },
        {
          role: 'assistant',
          content: 'We decided to deploy on Friday after the tests',
          createdAt: clock.now(),
        },
      ],
    });

    expect(missingVectorRowIds(db, 'pinned', 'alice', TINY_MODEL_ID, 100).map((r) => r.id)).toEqual(
      p,
    );
    expect(await svc.backfill()).toBe(4 + 2 + 2);
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(8);
    for (const kind of ['pinned', 'episode', 'transcript'] as const) {
      expect(missingVectorRowIds(db, kind, null, TINY_MODEL_ID, 100)).toEqual([]);
    }
    expect(await svc.backfill()).toBe(0);

    expect((await svc.search('alice', 'episode', 'database migration', 1))[0]?.id).toBe(e1);
    const t = await svc.search('alice', 'transcript', 'when do we deploy', 1);
    expect(turn.transcriptIds).toContain(t[0]?.id);
  });

  it('an aborted backfill stops and leaves the rest for later', async () => {
    const { db } = freshDb();
    const svc = service(db);
    for (const t of ALICE_FACTS) pinned(db, 'alice', t);
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await svc.backfill(ctrl.signal)).toBe(0);
    expect(countVectors(db)).toBe(0);
    expect(await svc.backfill()).toBe(4);
  });

  it('rebuilds the index from the stored BLOBs (loadIndex) with identical results', async () => {
    const { db } = freshDb();
    for (const t of ALICE_FACTS) pinned(db, 'alice', t);
    episode(db, 'alice', 'Alice talked about her cat and Paris');
    const first = service(db);
    await first.backfill();
    const query = 'where does Alice live';
    const before = await first.search('alice', 'pinned', query, 3);

    const index = createVectorIndex();
    const second = service(db, embedder, index);
    expect(second.loadIndex()).toBe(5);
    expect(index.count('alice', 'pinned')).toBe(4);
    expect(index.count('alice', 'episode')).toBe(1);
    const after = await second.search('alice', 'pinned', query, 3);
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
    after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i]?.score as number, 6));
  });

  it('removes vectors with their rows, and never stores a vector for a deleted row', async () => {
    const { db } = freshDb();
    const index = createVectorIndex();
    const svc = service(db, embedder, index);
    const [a, b] = ALICE_FACTS.map((t) => pinned(db, 'alice', t));
    await svc.backfill();
    expect(index.count()).toBe(4);

    // Deleting the source row deletes the BLOB (trigger); remove() drops it from the index.
    expect(trashRows(db, 'alice', 'pinned_facts', [a as number])).toBe(1);
    expect(countVectors(db)).toBe(3);
    svc.remove('pinned', a as number);
    expect(index.has('pinned', a as number)).toBe(false);
    expect(
      (await svc.search('alice', 'pinned', ALICE_FACTS[0] as string, 10)).map((h) => h.id),
    ).not.toContain(a);

    // A row deleted between embedding and storing does not come back as an orphan.
    await svc.indexRows('pinned', [{ id: a as number, agentId: 'alice', text: 'gone' }]);
    await committed(db);
    expect(index.has('pinned', a as number)).toBe(false);
    expect(countVectors(db)).toBe(3);
    // Nor is a vector stored under the wrong agent.
    await svc.indexRows('pinned', [{ id: b as number, agentId: 'mallory', text: 'x' }]);
    await committed(db);
    expect(countVectors(db, { agentId: 'mallory' })).toBe(0);
    expect(index.search('mallory', 'pinned', new Float32Array(TINY_MODEL_DIMS).fill(1), 5)).toEqual(
      [],
    );

    svc.removeAgent('alice');
    expect(countVectors(db)).toBe(0);
    expect(index.count()).toBe(0);
    expect(deleteVector(db, 'pinned', b as number)).toBe(false);
  });

  it('keys vectors to the model: another model ignores them, re-embeds and replaces them', async () => {
    const { db } = freshDb();
    for (const t of ALICE_FACTS) pinned(db, 'alice', t);
    await service(db).backfill();
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(4);

    // The same weights under another model id stand in for "the user switched models".
    const otherRoot = join(tmp, 'other-models');
    const otherId = 'cairn-test/tiny-bert-v2';
    cpSync(join(modelRoot, TINY_MODEL_ID), join(otherRoot, otherId), { recursive: true });
    const other = makeEmbedder(otherId, otherRoot);
    const index = createVectorIndex();
    const svc = service(db, other, index);
    expect(svc.loadIndex()).toBe(0); // old model's vectors are not loaded
    expect(missingVectorRowIds(db, 'pinned', 'alice', otherId, 100)).toHaveLength(4);

    expect(await svc.start()).toBe(4); // start → ready → backfill
    expect(countVectors(db, { model: otherId })).toBe(4);
    expect(countVectors(db, { model: TINY_MODEL_ID })).toBe(0); // replaced in place
    expect(index.count('alice', 'pinned')).toBe(4);
    await other.close();
  });

  it('while the model is not ready: search is empty, indexing waits for the backfill', async () => {
    const { db } = freshDb();
    const notStarted = makeEmbedder(TINY_MODEL_ID, modelRoot);
    const svc = service(db, notStarted);
    const id = pinned(db, 'alice', ALICE_FACTS[0] as string);
    expect(svc.isReady()).toBe(false);
    await svc.indexRows('pinned', [{ id, agentId: 'alice', text: ALICE_FACTS[0] as string }]);
    expect(await svc.search('alice', 'pinned', 'coffee', 3)).toEqual([]);
    expect(await svc.backfill()).toBe(0);
    expect(countVectors(db)).toBe(0);

    await notStarted.start();
    expect(await svc.backfill()).toBe(1);
    expect((await svc.search('alice', 'pinned', 'coffee', 3))[0]?.id).toBe(id);
    await notStarted.close();
  });

  it('upsertVectors replaces an existing vector in place', () => {
    const { db } = freshDb();
    const id = pinned(db, 'alice', 'x');
    const v1 = new Float32Array([1, 0, 0]);
    const v2 = new Float32Array([0, 1, 0]);
    const rec = { kind: 'pinned' as const, rowId: id, agentId: 'alice', model: 'm', createdAt: 1 };
    expect(upsertVectors(db, [{ ...rec, embedding: v1 }])).toHaveLength(1);
    expect(upsertVectors(db, [{ ...rec, embedding: v2, createdAt: 2 }])).toHaveLength(1);
    const rows = [...loadVectors(db, { model: 'm' })];
    expect(rows).toHaveLength(1);
    expect(Array.from(rows[0]?.embedding ?? [])).toEqual([0, 1, 0]);
    expect(rows[0]?.createdAt).toBe(2);
    expect(upsertVectors(db, [])).toEqual([]);
  });

  it('loads vectors page by page across kinds, and loadIndexAsync matches loadIndex', async () => {
    const { db } = freshDb();
    const records: VectorRecord[] = [];
    const unit = (i: number) => {
      const v = new Float32Array(8);
      v[i % 8] = 1;
      v[(i * 3 + 1) % 8] = (v[(i * 3 + 1) % 8] ?? 0) + 0.5;
      return v;
    };
    for (let i = 0; i < 2100; i++) {
      const agentId = i % 3 === 0 ? 'bob' : 'alice';
      const id = pinned(db, agentId, `fact ${i}`);
      records.push({
        kind: 'pinned',
        rowId: id,
        agentId,
        model: 'm',
        embedding: unit(i),
        createdAt: 1,
      });
    }
    for (let i = 0; i < 7; i++) {
      const id = episode(db, 'alice', `episode ${i}`);
      records.push({
        kind: 'episode',
        rowId: id,
        agentId: 'alice',
        model: 'm',
        embedding: unit(i),
        createdAt: 1,
      });
    }
    expect(upsertVectors(db, records)).toHaveLength(2107);

    // Small pages, across the kind boundary, with writes between pages.
    const seen: string[] = [];
    for (const v of loadVectors(db, { model: 'm' }, 5)) {
      seen.push(`${v.kind}:${v.rowId}`);
      if (seen.length === 3) pinned(db, 'carol', 'written while loading');
    }
    expect(seen).toHaveLength(2107);
    expect(new Set(seen).size).toBe(2107);
    expect([...loadVectors(db, { model: 'm', kind: 'episode' }, 2)]).toHaveLength(7);
    expect([...loadVectors(db, { model: 'm', agentId: 'bob' }, 100)]).toHaveLength(700);
    expect([...loadVectors(db, { model: 'other' })]).toHaveLength(0);

    const notLoaded = createEmbedder({
      backend: 'none',
      modelId: 'm',
      cacheDir: join(tmp, 'models'),
      allowRemoteModels: false,
      logger: silentLogger,
    });
    const syncIndex = createVectorIndex();
    expect(service(db, notLoaded, syncIndex).loadIndex()).toBe(2107);
    const asyncIndex = createVectorIndex();
    const svc = service(db, notLoaded, asyncIndex);
    const p = svc.loadIndexAsync();
    expect(svc.loadIndexAsync()).toBe(p); // one load at a time
    expect(await p).toBe(2107);
    for (const [agent, kind] of [
      ['alice', 'pinned'],
      ['bob', 'pinned'],
      ['alice', 'episode'],
    ] as const) {
      expect(asyncIndex.count(agent, kind)).toBe(syncIndex.count(agent, kind));
      const q = unit(5);
      expect(asyncIndex.search(agent, kind, q, 5)).toEqual(syncIndex.search(agent, kind, q, 5));
    }
  });
});
