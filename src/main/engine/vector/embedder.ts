// Sentence embeddings with transformers.js (DESIGN §12): `feature-extraction` pipeline,
// mean pooling over the attention mask, L2-normalised. The model loads in the background;
// until it is ready (first run: downloading it), search runs on FTS5 alone (DESIGN §13).
//
// transformers.js keeps its configuration in a module-level `env` object. It is set from
// this embedder's options right before loading, and loads are serialised (see `withEnvLock`)
// so two embedders with different settings cannot interleave. Per-call options
// (`cache_dir`, `local_files_only`) are passed as well.
//
// Inference runs one batch at a time through a two-level queue: query embeddings (the
// request path) go before background batches (indexing, backfill), so a query waits for at
// most one batch.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type * as Transformers from '@huggingface/transformers';
import type { FeatureExtractionPipeline, ProgressInfo } from '@huggingface/transformers';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import type { Logger } from '../logger.ts';

export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';

export type EmbedderStatus = 'disabled' | 'idle' | 'downloading' | 'loading' | 'ready' | 'error';

export interface EmbedderState {
  status: EmbedderStatus;
  model: string;
  /** 0..1 while downloading, otherwise null. */
  progress: number | null;
  /** Output dimensions once ready. */
  dims: number | null;
  error: string | null;
}

export interface Embedder {
  readonly modelId: string;
  state(): EmbedderState;
  isReady(): boolean;
  /**
   * Loads the model (downloading it if needed and allowed). Resolves when ready or failed;
   * never throws. Idempotent while loading or ready; after a failure it tries again.
   */
  start(): Promise<void>;
  /** L2-normalised embeddings, in input order. Throws CairnError when not ready, AbortError when aborted. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** One embedding at query priority, LRU-cached by text. The result is shared: do not mutate it. */
  embedQuery(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

export type EmbeddingDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';

export interface EmbedderOptions {
  backend: 'transformers' | 'none';
  modelId: string;
  /** Where downloaded models are cached, e.g. <dataDir>/models. */
  cacheDir: string;
  /** Where pre-installed models are looked up as <localModelPath>/<modelId>/ (default: cacheDir). */
  localModelPath?: string;
  allowRemoteModels: boolean;
  logger: Logger;
  /** Cached query embeddings (default 256; 0 disables the cache). */
  queryCacheSize?: number;
  /** Texts per inference batch (default 32). */
  batchSize?: number;
  /** ONNX weights variant: fp32 → onnx/model.onnx, q8 → onnx/model_quantized.onnx, ... (default fp32). */
  dtype?: EmbeddingDtype;
  /** ONNX Runtime intra-op threads (default: cores - 1, between 1 and 4). */
  threads?: number;
  /** Model hub base URL (default: the Hugging Face hub; a mirror, or a local server in tests). */
  remoteHost?: string;
}

const DTYPE_SUFFIX: Record<EmbeddingDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
};

// Serialises loads across embedders: transformers' `env` is module-level state of the library.
let envLock: Promise<unknown> = Promise.resolve();
function withEnvLock<T>(fn: () => Promise<T>): Promise<T> {
  const run = envLock.then(fn, fn);
  envLock = run.catch(() => undefined);
  return run;
}

/** transformers.js's default model hub (its `env.remoteHost`). */
const DEFAULT_REMOTE_HOST = 'https://huggingface.co/';

/**
 * Throws when the model hub cannot be reached at all (offline, a proxy in the way); any HTTP
 * answer will do, transformers.js then reports what is wrong with it. Loading transformers.js
 * and onnxruntime only to learn that the network is down left ~45 MB resident for the life of
 * the process, on every start of a machine that never gets the model.
 */
async function reachHub(remoteHost: string, modelId: string): Promise<void> {
  const url = new URL(`${modelId}/resolve/main/config.json`, remoteHost);
  const res = await fetch(url, { method: 'HEAD' });
  await res.body?.cancel();
}

function notReady(status: EmbedderStatus, model: string): CairnError {
  return new CairnError(
    ErrorCode.Internal,
    `The embedding model ${model} is not ready (status: ${status}).`,
    {
      status: 503,
    },
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createEmbedder(options: EmbedderOptions): Embedder {
  const modelId = options.modelId;
  const log = options.logger.child('embedder');
  const cacheSize = Math.max(0, Math.floor(options.queryCacheSize ?? 256));
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  const dtype: EmbeddingDtype = options.dtype ?? 'fp32';
  const threads = Math.max(
    1,
    Math.floor(options.threads ?? Math.min(4, availableParallelism() - 1)),
  );
  const localModelPath = options.localModelPath ?? options.cacheDir;

  let status: EmbedderStatus = options.backend === 'none' ? 'disabled' : 'idle';
  let progress: number | null = null;
  let dims: number | null = null;
  let error: string | null = null;
  let extractor: FeatureExtractionPipeline | null = null;
  let starting: Promise<void> | null = null;
  let generation = 0; // bumped by close(): a load that finishes after close() is discarded

  const cache = new Map<string, Float32Array>();
  const inflight = new Map<string, Promise<Float32Array>>();

  // --- inference queue ---
  type Job = () => Promise<void>;
  const high: Job[] = [];
  const low: Job[] = [];
  let pumping = false;
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      for (let job = high.shift() ?? low.shift(); job; job = high.shift() ?? low.shift())
        await job();
    } finally {
      pumping = false;
    }
  };
  const enqueue = <T>(priority: 'high' | 'low', fn: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      (priority === 'high' ? high : low).push(() => fn().then(resolve, reject));
      void pump();
    });

  /** Runs one batch through the model. */
  const runBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const ex = extractor;
    if (!ex || status !== 'ready') throw notReady(status, modelId);
    const out = await ex(texts, { pooling: 'mean', normalize: true });
    try {
      const data = out.data as Float32Array;
      const d = out.dims.at(-1) ?? 0;
      if (out.dims.length !== 2 || out.dims[0] !== texts.length || d <= 0) {
        throw new CairnError(
          ErrorCode.Internal,
          `Unexpected embedding output shape [${out.dims.join(', ')}].`,
        );
      }
      const rows: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++)
        rows.push(Float32Array.from(data.subarray(i * d, (i + 1) * d)));
      return rows;
    } finally {
      out.dispose();
    }
  };

  /** Where the model's files would be if already on this machine. */
  const localDirs = (): string[] =>
    isAbsolute(modelId)
      ? [modelId]
      : [join(localModelPath, modelId), join(options.cacheDir, modelId)];
  const isOnDisk = (): boolean =>
    localDirs().some(
      (dir) =>
        existsSync(join(dir, 'config.json')) &&
        existsSync(join(dir, 'onnx', `model${DTYPE_SUFFIX[dtype]}.onnx`)),
    );

  const load = async (myGeneration: number): Promise<void> => {
    const started = performance.now();
    const onDisk = isOnDisk();
    if (!onDisk && !options.allowRemoteModels) {
      throw new Error(
        `The embedding model ${modelId} is not on this machine (looked in ${localDirs().join(', ')}) and model downloads are disabled.`,
      );
    }
    status = onDisk ? 'loading' : 'downloading';
    progress = onDisk ? null : 0;
    log.info(onDisk ? 'loading embedding model' : 'downloading embedding model', {
      model: modelId,
      dtype,
    });

    const files = new Map<string, { loaded: number; total: number }>();
    const onProgress = (info: ProgressInfo): void => {
      if (status !== 'downloading') return;
      if (info.status === 'progress') {
        files.set(info.file, { loaded: info.loaded, total: info.total });
        // The .onnx weights dominate the download; before they start, report 0.
        let loaded = 0;
        let total = 0;
        let weights = false;
        for (const [file, f] of files) {
          loaded += f.loaded;
          total += f.total;
          if (file.endsWith('.onnx') || file.endsWith('.onnx_data')) weights = true;
        }
        if (weights && total > 0) progress = Math.min(1, Math.max(progress ?? 0, loaded / total));
      } else if (info.status === 'done' && info.file.endsWith('.onnx')) {
        status = 'loading';
        progress = null;
      }
    };

    if (!onDisk) await reachHub(options.remoteHost ?? DEFAULT_REMOTE_HOST, modelId);
    const tf: typeof Transformers = await import('@huggingface/transformers');
    const ex = await withEnvLock(() => {
      tf.env.allowLocalModels = true;
      tf.env.allowRemoteModels = options.allowRemoteModels;
      tf.env.localModelPath = localModelPath;
      tf.env.cacheDir = options.cacheDir;
      tf.env.useFSCache = true;
      if (options.remoteHost) tf.env.remoteHost = options.remoteHost;
      tf.env.logLevel = tf.LogLevel.ERROR;
      return tf.pipeline('feature-extraction', modelId, {
        dtype,
        cache_dir: options.cacheDir,
        local_files_only: !options.allowRemoteModels,
        progress_callback: onProgress,
        session_options: { intraOpNumThreads: threads },
      });
    });
    let d = 0;
    try {
      if (myGeneration === generation) {
        status = 'loading';
        progress = null;
        // A probe gives the output size and proves the model runs before we say ready.
        const probe = await ex(['cairn'], { pooling: 'mean', normalize: true });
        d = probe.dims.at(-1) ?? 0;
        probe.dispose();
        if (d <= 0) throw new Error('the model produced an empty embedding');
      }
    } catch (err) {
      await ex.dispose().catch(() => undefined);
      throw err;
    }
    if (myGeneration !== generation) {
      // close() was called while loading.
      await ex.dispose();
      return;
    }
    extractor = ex;
    dims = d;
    status = 'ready';
    log.info('embedding model ready', {
      model: modelId,
      dims: d,
      ms: Math.round(performance.now() - started),
    });
  };

  const start = (): Promise<void> => {
    if (status === 'disabled') return Promise.resolve();
    if (starting) return starting;
    error = null;
    const myGeneration = generation;
    starting = load(myGeneration).catch((err: unknown) => {
      if (myGeneration !== generation) return; // closed meanwhile
      const msg = errorText(err);
      dims = null;
      progress = null;
      status = 'error';
      error = msg.startsWith('The embedding model')
        ? msg
        : `Could not load the embedding model ${modelId}: ${msg}`;
      // A warning: search goes on with the word vectors and full text, and the service tries
      // again (offline, a download that is not allowed, a proxy in the way are the usual causes).
      log.warn('embedding model failed to load', { model: modelId, error });
      starting = null; // a later start() tries again
    });
    return starting;
  };

  return {
    modelId,

    state: () => ({ status, model: modelId, progress, dims, error }),

    isReady: () => status === 'ready',

    start,

    async embed(texts, signal) {
      if (status !== 'ready') throw notReady(status, modelId);
      signal?.throwIfAborted();
      if (texts.length === 0) return [];
      // Similar lengths batch together: less padding, same results (pooling honours the mask).
      const order = texts
        .map((_, i) => i)
        .sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
      const out = new Array<Float32Array>(texts.length);
      for (let i = 0; i < order.length; i += batchSize) {
        signal?.throwIfAborted();
        const idx = order.slice(i, i + batchSize);
        const rows = await enqueue('low', () => {
          signal?.throwIfAborted();
          return runBatch(idx.map((j) => texts[j] as string));
        });
        idx.forEach((j, r) => {
          out[j] = rows[r] as Float32Array;
        });
      }
      return out;
    },

    async embedQuery(text) {
      if (status !== 'ready') throw notReady(status, modelId);
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const pending = inflight.get(text);
      if (pending) return pending;
      const p = enqueue('high', () => runBatch([text]))
        .then((rows) => {
          const vec = rows[0] as Float32Array;
          if (cacheSize > 0) {
            cache.set(text, vec);
            while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
          }
          return vec;
        })
        .finally(() => inflight.delete(text));
      inflight.set(text, p);
      return p;
    },

    async close() {
      generation++;
      const ex = extractor;
      extractor = null;
      starting = null;
      cache.clear();
      if (status !== 'disabled') {
        status = 'idle';
        progress = null;
        dims = null;
        error = null;
      }
      // Behind the batches already queued at query priority; later ones see "not ready".
      if (ex) await enqueue('high', () => ex.dispose());
    },
  };
}
