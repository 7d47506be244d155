// Glue between the embedder, the encrypted `vectors` table and the in-memory index.
//
// - loadIndex(): at start-up, rebuild the index from the BLOBs of the current model.
// - indexRows(): after rows are written, embed them, store the BLOBs, index them.
// - backfill(): once the model is ready (it may download on first run), embed every row that
//   has no vector of the current model yet, in batches. Vectors of another model are
//   ignored and replaced as rows are re-embedded, so changing the model is just a restart.
// - search(): query embedding (cached) + brute-force top-k; [] while the model is not ready,
//   so callers fall back to FTS5 (DESIGN §7).
//
// Nothing here throws into the caller for an embedding problem: failures are logged and
// the affected rows stay "missing" for the next backfill.

import { systemClock, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { stripPrivate } from '../memory/private.ts';
import type { Db } from '../store/migrate.ts';
import {
  deleteAgentVectors,
  deleteVector,
  loadVectorsPage,
  missingVectorRowIds,
  upsertVectors,
  type StoredVector,
  type VectorCursor,
  type VectorRecord,
} from '../store/vectors.ts';
import type { Embedder } from './embedder.ts';
import type { VectorHit, VectorIndex, VectorKind } from './vector-index.ts';

export interface IndexableRow {
  id: number;
  agentId: string;
  /** transcript.content, episodes.summary or pinned_facts.content (what backfill embeds too). */
  text: string;
}

export interface VectorServiceOptions {
  db: Db;
  embedder: Embedder;
  index: VectorIndex;
  logger: Logger;
  clock?: Clock;
  /** Rows per backfill step (default 64). */
  backfillBatchSize?: number;
}

export interface VectorService {
  readonly modelId: string;
  isReady(): boolean;
  /** Rebuilds the index from the stored vectors of the current model; returns how many. */
  loadIndex(): number;
  /**
   * Same as loadIndex, page by page, yielding to the event loop between pages (100k vectors
   * take seconds). Searches meanwhile see a partial index. Concurrent calls share one load.
   */
  loadIndexAsync(signal?: AbortSignal): Promise<number>;
  /**
   * Embeds, stores and indexes rows. While the model is not ready this does nothing (the
   * next backfill picks the rows up); failures are logged, never thrown.
   */
  indexRows(kind: VectorKind, rows: readonly IndexableRow[]): Promise<void>;
  remove(kind: VectorKind, id: number): void;
  removeAgent(agentId: string): void;
  /** Embeds rows that have no vector of the current model; returns how many were stored. */
  backfill(signal?: AbortSignal): Promise<number>;
  /** Nearest rows of one agent and kind; [] when the model is not ready or nothing is indexed. */
  search(
    agentId: string,
    kind: VectorKind,
    queryText: string,
    k: number,
    accept?: (id: number) => boolean,
  ): Promise<VectorHit[]>;
  /**
   * Starts the embedder and, once it is ready, loads the index (unless already loaded) and
   * backfills. Resolves with the number of rows backfilled. Never throws.
   */
  start(signal?: AbortSignal): Promise<number>;
}

/** Vectors read per page when loading the index. */
const LOAD_PAGE = 2000;

/** Most useful first: facts, then episodes, then the raw transcript. */
const BACKFILL_ORDER: readonly VectorKind[] = ['pinned', 'episode', 'transcript'];

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

export function createVectorService(options: VectorServiceOptions): VectorService {
  const { db, embedder, index } = options;
  const log = options.logger.child('vectors');
  const clock = options.clock ?? systemClock;
  const batch = Math.max(1, Math.floor(options.backfillBatchSize ?? 64));
  const model = embedder.modelId;
  let backfilling: Promise<number> | null = null;
  let loading: Promise<number> | null = null;
  let loaded = false;

  /** The index must hold vectors of the embedder's size; a mismatch means stale data. */
  const checkDims = (): void => {
    const d = embedder.state().dims;
    if (d !== null && index.dims !== null && index.dims !== d) {
      log.warn('indexed vectors do not match the model size; dropping them', {
        model,
        indexDims: index.dims,
        modelDims: d,
      });
      index.clear();
    }
  };

  /** Embeds and stores rows; returns the stored count. Throws on embedding errors. */
  const embedAndStore = async (
    kind: VectorKind,
    rows: readonly IndexableRow[],
    signal?: AbortSignal,
  ): Promise<number> => {
    const todo = rows.filter((r) => r.text.trim().length > 0);
    if (todo.length === 0) return 0;
    // Callers pass the text they wrote; the store replaced its private spans (DESIGN §6), so
    // the embedding must not be made from the text before that.
    const vecs = await embedder.embed(
      todo.map((r) => stripPrivate(r.text)),
      signal,
    );
    const now = clock.now();
    const records: VectorRecord[] = todo.map((r, i) => ({
      kind,
      rowId: r.id,
      agentId: r.agentId,
      model,
      embedding: vecs[i] as Float32Array,
      createdAt: now,
    }));
    const stored = upsertVectors(db, records);
    checkDims();
    for (const r of stored) index.upsert(r.agentId, r.kind, r.rowId, r.embedding);
    return stored.length;
  };

  const runBackfill = async (signal?: AbortSignal): Promise<number> => {
    if (!embedder.isReady()) return 0;
    const started = performance.now();
    let total = 0;
    try {
      for (const kind of BACKFILL_ORDER) {
        let afterId = 0;
        for (;;) {
          if (signal?.aborted || !embedder.isReady()) return total;
          const rows = missingVectorRowIds(db, kind, null, model, batch, afterId);
          if (rows.length === 0) break;
          afterId = (rows.at(-1) as IndexableRow).id;
          total += await embedAndStore(kind, rows, signal);
        }
      }
    } catch (err) {
      if (!isAbort(err)) log.warn('vector backfill stopped', { model, error: err });
    } finally {
      if (total > 0) {
        log.info('vector backfill', {
          model,
          stored: total,
          ms: Math.round(performance.now() - started),
        });
      }
    }
    return total;
  };

  interface LoadState {
    dims: number | null;
    loaded: number;
    skipped: number;
  }

  const beginLoad = (): LoadState => {
    index.clear();
    return { dims: embedder.state().dims, loaded: 0, skipped: 0 };
  };

  /** Adds one page to the index; returns the cursor of the next page, or null at the end. */
  const addPage = (load: LoadState, page: StoredVector[]): VectorCursor | null => {
    for (const v of page) {
      if (
        (load.dims !== null && v.dims !== load.dims) ||
        (index.dims !== null && v.dims !== index.dims)
      ) {
        load.skipped++;
        continue;
      }
      index.upsert(v.agentId, v.kind, v.rowId, v.embedding);
      load.loaded++;
    }
    const last = page.at(-1);
    return last && page.length === LOAD_PAGE ? { kind: last.kind, rowId: last.rowId } : null;
  };

  const endLoad = (load: LoadState, started: number): number => {
    loaded = true;
    log.info('vector index loaded', {
      model,
      vectors: load.loaded,
      skipped: load.skipped,
      ms: Math.round(performance.now() - started),
    });
    return load.loaded;
  };

  const service: VectorService = {
    modelId: model,

    isReady: () => embedder.isReady(),

    loadIndex() {
      const started = performance.now();
      const load = beginLoad();
      let after: VectorCursor | null = null;
      for (;;) {
        const page = loadVectorsPage(db, { model }, after, LOAD_PAGE);
        after = addPage(load, page);
        if (!after) break;
      }
      return endLoad(load, started);
    },

    loadIndexAsync(signal) {
      if (loading) return loading;
      const run = async (): Promise<number> => {
        const started = performance.now();
        const load = beginLoad();
        let after: VectorCursor | null = null;
        for (;;) {
          if (signal?.aborted) break;
          const page = loadVectorsPage(db, { model }, after, LOAD_PAGE);
          after = addPage(load, page);
          if (!after) break;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return endLoad(load, started);
      };
      loading = run().finally(() => {
        loading = null;
      });
      return loading;
    },

    async indexRows(kind, rows) {
      if (!embedder.isReady() || rows.length === 0) return;
      try {
        await embedAndStore(kind, rows);
      } catch (err) {
        log.warn('embedding rows failed; they will be retried by the next backfill', {
          model,
          kind,
          rows: rows.length,
          error: err,
        });
      }
    },

    remove(kind, id) {
      index.remove(kind, id);
      deleteVector(db, kind, id);
    },

    removeAgent(agentId) {
      index.removeAgent(agentId);
      deleteAgentVectors(db, agentId);
    },

    backfill(signal) {
      if (!backfilling) {
        backfilling = runBackfill(signal).finally(() => {
          backfilling = null;
        });
      }
      return backfilling;
    },

    async search(agentId, kind, queryText, k, accept) {
      if (!embedder.isReady() || !(k >= 1) || index.count(agentId, kind) === 0) return [];
      let query: Float32Array;
      try {
        query = await embedder.embedQuery(queryText);
      } catch (err) {
        log.warn('query embedding failed; vector search skipped', { model, error: err });
        return [];
      }
      if (index.dims !== query.length) return [];
      return index.search(agentId, kind, query, k, accept);
    },

    async start(signal) {
      await embedder.start();
      if (!embedder.isReady() || signal?.aborted) return 0;
      checkDims();
      if (loading) await loading;
      else if (!loaded) await service.loadIndexAsync(signal);
      return service.backfill(signal);
    },
  };
  return service;
}
