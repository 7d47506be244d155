// Glue between the embedders, the encrypted `vectors` table and the in-memory indexes.
//
// Two lanes, never mixed in one cosine: the sentence model (`embedder`, the primary) and the
// static word vectors (`fallback`, ready within a second and without a download). Until the
// primary is ready and has re-embedded the rows (its first backfill), the fallback serves
// vector search from its own index; then the primary takes over and the fallback index is
// dropped. A failed primary load is retried with exponential backoff (bounded), and at once
// on request (retryNow, the UI's button). The vectors table holds one vector per row: the
// fallback only fills rows that have no vector of either model, so a restart never
// overwrites the sentence model's vectors with static ones.
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
import { stripPrivate } from '../text/private.ts';
import type { Db } from '../store/db.ts';
import { groupCommit } from '../store/group-commit.ts';
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
import type { ActiveEmbedder, EmbedderStateDto } from '../../../shared/api.ts';
import type { Embedder } from './embedder.ts';
import {
  createVectorIndex,
  type VectorHit,
  type VectorIndex,
  type VectorKind,
} from './vector-index.ts';

export interface IndexableRow {
  id: number;
  agentId: string;
  /** transcript.content, episodes.summary or pinned_facts.content (what backfill embeds too). */
  text: string;
}

export interface VectorServiceOptions {
  db: Db;
  /** The sentence model (primary). */
  embedder: Embedder;
  index: VectorIndex;
  logger: Logger;
  clock?: Clock;
  /** Rows per backfill step (default 64). */
  backfillBatchSize?: number;
  /** Static word vectors: serve vector search until the primary is ready (or without it). */
  fallback?: Embedder;
  /** The fallback's own index (default: a new one). */
  fallbackIndex?: VectorIndex;
  retry?: RetryOptions;
}

export interface RetryOptions {
  /** Delay before the first automatic retry of a failed primary load (default 30 s). */
  initialDelayMs?: number;
  /** The delay doubles up to this (default 30 min). */
  maxDelayMs?: number;
  /** Automatic retries before giving up until the next manual retry (default 8). */
  maxAttempts?: number;
}

export interface VectorService {
  /** The primary (sentence) model's id. */
  readonly modelId: string;
  /** Whether some embedder serves vector search now. */
  isReady(): boolean;
  /** The model whose vectors answer searches now, or null (keyword search only). */
  activeModel(): string | null;
  /** The primary's state plus the active embedder, the fallback and the retry schedule. */
  state(): EmbedderStateDto;
  /** Rebuilds the primary's index from its stored vectors; returns how many. */
  loadIndex(): number;
  /**
   * Same as loadIndex, page by page, yielding to the event loop between pages (100k vectors
   * take seconds). Searches meanwhile see a partial index. Concurrent calls share one load.
   */
  loadIndexAsync(signal?: AbortSignal): Promise<number>;
  /**
   * Embeds, stores and indexes rows with the primary when it is ready, and with the
   * fallback while the fallback serves. Failures are logged, never thrown; rows left without
   * a vector are picked up by the next backfill.
   */
  indexRows(kind: VectorKind, rows: readonly IndexableRow[]): Promise<void>;
  remove(kind: VectorKind, id: number): void;
  removeAgent(agentId: string): void;
  /**
   * Embeds rows that have no vector of the primary (when it is ready; the first complete
   * pass hands search over to it), else rows with no vector at all with the fallback.
   * Returns how many were stored.
   */
  backfill(signal?: AbortSignal): Promise<number>;
  /** Nearest rows of one agent and kind; [] when nothing serves or nothing is indexed. */
  search(
    agentId: string,
    kind: VectorKind,
    queryText: string,
    k: number,
    accept?: (id: number) => boolean,
  ): Promise<VectorHit[]>;
  /**
   * Starts the fallback (its index, its backfill) and the primary; once the primary is
   * ready, loads its index and backfills, then it serves. A failed primary load is retried
   * with backoff until `signal` aborts. Resolves with the rows backfilled. Never throws.
   */
  start(signal?: AbortSignal): Promise<number>;
  /** Tries the primary again now (a failed download), restarting the backoff. Never throws. */
  retryNow(): Promise<void>;
}

/** Vectors read per page when loading an index. */
const LOAD_PAGE = 2000;
/** At most this long a new row's vectors wait for another write's commit to share. */
const VECTOR_WRITE_DELAY_MS = 1000;

/** Most useful first: facts, then episodes, then the raw transcript. */
const BACKFILL_ORDER: readonly VectorKind[] = ['pinned', 'episode', 'transcript'];

const DEFAULT_RETRY = { initialDelayMs: 30_000, maxDelayMs: 30 * 60_000, maxAttempts: 8 };

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

function isZero(vec: Float32Array): boolean {
  for (const x of vec) if (x !== 0) return false;
  return true;
}

/** One embedder with its own index: vectors of two models never meet in one cosine. */
interface Lane {
  embedder: Embedder;
  index: VectorIndex;
  model: string;
  loaded: boolean;
  loading: Promise<number> | null;
  backfilling: Promise<number> | null;
}

function lane(embedder: Embedder, index: VectorIndex): Lane {
  return {
    embedder,
    index,
    model: embedder.modelId,
    loaded: false,
    loading: null,
    backfilling: null,
  };
}

interface LoadState {
  dims: number | null;
  loaded: number;
  skipped: number;
}

export function createVectorService(options: VectorServiceOptions): VectorService {
  const { db } = options;
  const log = options.logger.child('vectors');
  const clock = options.clock ?? systemClock;
  const batch = Math.max(1, Math.floor(options.backfillBatchSize ?? 64));
  const retryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const primary = lane(options.embedder, options.index);
  const fallback = options.fallback
    ? lane(options.fallback, options.fallbackIndex ?? createVectorIndex())
    : null;
  /** True once the primary has re-embedded every row (its first complete backfill). */
  let primaryServes = false;
  let retryAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryAt: number | null = null;
  let startSignal: AbortSignal | undefined;
  let primaryRun: Promise<number> | null = null;

  /** The lane whose vectors answer searches now. */
  const serving = (): Lane | null => {
    const fallbackReady = fallback?.embedder.isReady() === true;
    // Without a fallback to serve meanwhile, a ready primary serves its partial index.
    if (primary.embedder.isReady() && (primaryServes || !fallbackReady)) return primary;
    return fallbackReady ? fallback : null;
  };

  /** A lane's index must hold vectors of its embedder's size; a mismatch means stale data. */
  const checkDims = (l: Lane): void => {
    const d = l.embedder.state().dims;
    if (d !== null && l.index.dims !== null && l.index.dims !== d) {
      log.warn('indexed vectors do not match the model size; dropping them', {
        model: l.model,
        indexDims: l.index.dims,
        modelDims: d,
      });
      l.index.clear();
    }
  };

  /**
   * Embeds rows with a lane, indexes them and stores them: `now` before indexing (the
   * backfill's next page depends on it), `later` with the connection's next commit
   * (group-commit.ts: a new turn's vectors share the commit of what comes after it; lost in a
   * crash, they are re-embedded by the backfill), `false` not at all.
   */
  const embedAndStore = async (
    l: Lane,
    kind: VectorKind,
    rows: readonly IndexableRow[],
    store: 'now' | 'later' | false,
    signal?: AbortSignal,
  ): Promise<number> => {
    const todo = rows.filter((r) => r.text.trim().length > 0);
    if (todo.length === 0) return 0;
    // Callers pass the text they wrote; the store replaced its private spans (DESIGN §6), so
    // the embedding must not be made from the text before that.
    const vecs = await l.embedder.embed(
      todo.map((r) => stripPrivate(r.text)),
      signal,
    );
    const now = clock.now();
    const records: VectorRecord[] = todo.map((r, i) => ({
      kind,
      rowId: r.id,
      agentId: r.agentId,
      model: l.model,
      embedding: vecs[i] as Float32Array,
      createdAt: now,
    }));
    const stored = store === 'now' ? upsertVectors(db, records) : records;
    checkDims(l);
    for (const r of stored) l.index.upsert(r.agentId, r.kind, r.rowId, r.embedding);
    if (store === 'later') storeLater(l, kind, records);
    return store === false ? 0 : stored.length;
  };

  /** Stores indexed records with the next commit; one whose row went meanwhile leaves the index. */
  const storeLater = (l: Lane, kind: VectorKind, records: VectorRecord[]): void => {
    groupCommit(db)
      .later(() => upsertVectors(db, records), VECTOR_WRITE_DELAY_MS)
      .then(
        (stored) => {
          if (stored.length === records.length) return;
          const kept = new Set(stored);
          for (const r of records) if (!kept.has(r)) l.index.remove(r.kind, r.rowId);
        },
        (err: unknown) =>
          log.warn('storing vectors failed; they will be retried by the next backfill', {
            model: l.model,
            kind,
            rows: records.length,
            error: err,
          }),
      );
  };

  const runBackfill = async (l: Lane, signal?: AbortSignal): Promise<number> => {
    const isPrimary = l === primary;
    // The fallback stops as soon as the primary can take over; it fills only rows that have
    // no vector of either model.
    const go = (): boolean =>
      !signal?.aborted && l.embedder.isReady() && (isPrimary || !primary.embedder.isReady());
    if (!go()) return 0;
    const started = performance.now();
    let total = 0;
    try {
      for (const kind of BACKFILL_ORDER) {
        let afterId = 0;
        for (;;) {
          if (!go()) return total;
          const rows = missingVectorRowIds(
            db,
            kind,
            null,
            l.model,
            batch,
            afterId,
            isPrimary ? undefined : primary.model,
          );
          if (rows.length === 0) break;
          afterId = (rows.at(-1) as IndexableRow).id;
          total += await embedAndStore(l, kind, rows, 'now', signal);
        }
      }
      if (isPrimary && !primaryServes && go()) handOver();
    } catch (err) {
      if (!isAbort(err)) log.warn('vector backfill stopped', { model: l.model, error: err });
    } finally {
      if (total > 0) {
        log.info('vector backfill', {
          model: l.model,
          stored: total,
          ms: Math.round(performance.now() - started),
        });
      }
    }
    return total;
  };

  /** The primary has every row: it serves from now on, and the fallback index goes. */
  const handOver = (): void => {
    primaryServes = true;
    if (fallback) {
      fallback.index.clear();
      fallback.loaded = false;
    }
    log.info('vector search uses the sentence model', { model: primary.model });
  };

  const backfillLane = (l: Lane, signal?: AbortSignal): Promise<number> => {
    l.backfilling ??= runBackfill(l, signal).finally(() => {
      l.backfilling = null;
    });
    return l.backfilling;
  };

  const beginLoad = (l: Lane): LoadState => {
    l.index.clear();
    return { dims: l.embedder.state().dims, loaded: 0, skipped: 0 };
  };

  /** Adds one page to a lane's index; returns the cursor of the next page, or null at the end. */
  const addPage = (l: Lane, load: LoadState, page: StoredVector[]): VectorCursor | null => {
    for (const v of page) {
      if (
        (load.dims !== null && v.dims !== load.dims) ||
        (l.index.dims !== null && v.dims !== l.index.dims)
      ) {
        load.skipped++;
        continue;
      }
      l.index.upsert(v.agentId, v.kind, v.rowId, v.embedding);
      load.loaded++;
    }
    const last = page.at(-1);
    return last && page.length === LOAD_PAGE ? { kind: last.kind, rowId: last.rowId } : null;
  };

  const endLoad = (l: Lane, load: LoadState, started: number): number => {
    l.loaded = true;
    log.info('vector index loaded', {
      model: l.model,
      vectors: load.loaded,
      skipped: load.skipped,
      ms: Math.round(performance.now() - started),
    });
    return load.loaded;
  };

  const loadLaneAsync = (l: Lane, signal?: AbortSignal): Promise<number> => {
    if (l.loading) return l.loading;
    const run = async (): Promise<number> => {
      const started = performance.now();
      const load = beginLoad(l);
      let after: VectorCursor | null = null;
      for (;;) {
        if (signal?.aborted) break;
        const page = loadVectorsPage(db, { model: l.model }, after, LOAD_PAGE);
        after = addPage(l, load, page);
        if (!after) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return endLoad(l, load, started);
    };
    l.loading = run().finally(() => {
      l.loading = null;
    });
    return l.loading;
  };

  /** Loads a ready lane's index (once) and backfills it. */
  const bringUp = async (l: Lane, signal?: AbortSignal): Promise<number> => {
    if (!l.embedder.isReady() || signal?.aborted) return 0;
    checkDims(l);
    if (l.loading) await l.loading;
    else if (!l.loaded) await loadLaneAsync(l, signal);
    return backfillLane(l, signal);
  };

  const clearRetry = (): void => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    retryAt = null;
  };

  const scheduleRetry = (): void => {
    clearRetry();
    if (startSignal?.aborted || retryAttempts >= retryOptions.maxAttempts) return;
    const delay = Math.min(
      retryOptions.maxDelayMs,
      retryOptions.initialDelayMs * 2 ** retryAttempts,
    );
    retryAttempts++;
    retryAt = clock.now() + delay;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      retryAt = null;
      void runPrimary();
    }, delay);
    retryTimer.unref?.();
    log.info('embedding model retry scheduled', {
      model: primary.model,
      attempt: retryAttempts,
      inMs: delay,
    });
  };

  /** Loads the primary (download if needed); on success brings it up, on failure retries later. */
  const runPrimary = (): Promise<number> => {
    primaryRun ??= (async () => {
      await primary.embedder.start();
      if (startSignal?.aborted) return 0;
      if (!primary.embedder.isReady()) {
        if (primary.embedder.state().status === 'error') scheduleRetry();
        return 0;
      }
      retryAttempts = 0;
      clearRetry();
      return bringUp(primary, startSignal);
    })().finally(() => {
      primaryRun = null;
    });
    return primaryRun;
  };

  const active = (): ActiveEmbedder => {
    const l = serving();
    return l === primary ? 'sentence_model' : l === fallback ? 'word_vectors' : 'none';
  };

  const service: VectorService = {
    modelId: primary.model,

    isReady: () => serving() !== null,

    activeModel: () => serving()?.model ?? null,

    state() {
      const fb = fallback?.embedder.state();
      return {
        ...primary.embedder.state(),
        active: active(),
        wordVectors: fb
          ? { status: fb.status, model: fb.model, dims: fb.dims, error: fb.error }
          : null,
        retry:
          retryAttempts > 0 || retryAt !== null
            ? { attempts: retryAttempts, maxAttempts: retryOptions.maxAttempts, nextAt: retryAt }
            : null,
      };
    },

    loadIndex() {
      const started = performance.now();
      const load = beginLoad(primary);
      let after: VectorCursor | null = null;
      for (;;) {
        const page = loadVectorsPage(db, { model: primary.model }, after, LOAD_PAGE);
        after = addPage(primary, load, page);
        if (!after) break;
      }
      return endLoad(primary, load, started);
    },

    loadIndexAsync: (signal) => loadLaneAsync(primary, signal),

    async indexRows(kind, rows) {
      if (rows.length === 0) return;
      const primaryReady = primary.embedder.isReady();
      const lanes: { l: Lane; store: 'later' | false }[] = [];
      if (primaryReady) lanes.push({ l: primary, store: 'later' });
      // While the fallback serves, new rows must be searchable with it too; the table keeps
      // the primary's vector when there is one.
      if (fallback?.embedder.isReady() && serving() === fallback) {
        lanes.push({ l: fallback, store: primaryReady ? false : 'later' });
      }
      for (const { l, store } of lanes) {
        try {
          await embedAndStore(l, kind, rows, store);
        } catch (err) {
          log.warn('embedding rows failed; they will be retried by the next backfill', {
            model: l.model,
            kind,
            rows: rows.length,
            error: err,
          });
        }
      }
    },

    remove(kind, id) {
      primary.index.remove(kind, id);
      fallback?.index.remove(kind, id);
      deleteVector(db, kind, id);
    },

    removeAgent(agentId) {
      primary.index.removeAgent(agentId);
      fallback?.index.removeAgent(agentId);
      deleteAgentVectors(db, agentId);
    },

    backfill(signal) {
      if (primary.embedder.isReady()) return backfillLane(primary, signal);
      if (fallback?.embedder.isReady()) return backfillLane(fallback, signal);
      return Promise.resolve(0);
    },

    async search(agentId, kind, queryText, k, accept) {
      const l = serving();
      if (!l || !(k >= 1) || l.index.count(agentId, kind) === 0) return [];
      let query: Float32Array;
      try {
        query = await l.embedder.embedQuery(queryText);
      } catch (err) {
        log.warn('query embedding failed; vector search skipped', { model: l.model, error: err });
        return [];
      }
      // A query with no known word has no direction: every score would be 0.
      if (l.index.dims !== query.length || isZero(query)) return [];
      return l.index.search(agentId, kind, query, k, accept);
    },

    async start(signal) {
      startSignal = signal;
      signal?.addEventListener('abort', clearRetry, { once: true });
      const fromFallback = fallback
        ? fallback.embedder.start().then(() => bringUp(fallback, signal))
        : Promise.resolve(0);
      const [a, b] = await Promise.all([fromFallback, runPrimary()]);
      return a + b;
    },

    async retryNow() {
      if (startSignal?.aborted) return;
      retryAttempts = 0;
      clearRetry();
      await runPrimary();
    },
  };
  return service;
}
