// The static word vectors behind the Embedder interface, so the vector service can embed
// facts, episodes and transcript rows with them from the first minute (no download), until
// the sentence model is ready. A text's vector is the SIF-weighted average of its words
// (WordVectors.embedText). Loading takes tens of milliseconds once the asset exists; the
// first start without an asset builds it from the installed package (about a second).

import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Embedder, EmbedderState, EmbedderStatus } from './embedder.ts';
import { loadWordVectors, WORD_VECTORS_MODEL_ID, type WordVectors } from './word-vectors.ts';

export interface WordVectorEmbedderOptions {
  /** Resolves the asset's path (building the asset if needed). */
  assetPath: () => Promise<string>;
  logger: Logger;
}

export interface WordVectorEmbedder extends Embedder {
  /** The loaded vectors (query expansion, relation mapping), null until ready. */
  words(): WordVectors | null;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createWordVectorEmbedder(options: WordVectorEmbedderOptions): WordVectorEmbedder {
  const log = options.logger.child('word-vectors');
  let status: EmbedderStatus = 'idle';
  let error: string | null = null;
  let vectors: WordVectors | null = null;
  let starting: Promise<void> | null = null;
  let generation = 0;

  const notReady = (): CairnError =>
    new CairnError(ErrorCode.Internal, `The word vectors are not ready (status: ${status}).`, {
      status: 503,
    });

  /** A text without a known word gets a zero vector: it matches nothing (cosine 0). */
  const embedOne = (wv: WordVectors, text: string): Float32Array =>
    wv.embedText(text) ?? new Float32Array(wv.dims);

  const load = async (myGeneration: number): Promise<void> => {
    const started = performance.now();
    status = 'loading';
    const path = await options.assetPath();
    const wv = loadWordVectors(path);
    if (myGeneration !== generation) return;
    vectors = wv;
    status = 'ready';
    log.info('word vectors ready', {
      words: wv.size,
      dims: wv.dims,
      ms: Math.round(performance.now() - started),
    });
  };

  return {
    modelId: WORD_VECTORS_MODEL_ID,

    state: (): EmbedderState => ({
      status,
      model: WORD_VECTORS_MODEL_ID,
      progress: null,
      dims: vectors?.dims ?? null,
      error,
    }),

    isReady: () => status === 'ready',

    words: () => vectors,

    start() {
      if (starting) return starting;
      error = null;
      const myGeneration = generation;
      starting = load(myGeneration).catch((err: unknown) => {
        if (myGeneration !== generation) return;
        status = 'error';
        error = `Could not load the word vectors: ${errorText(err)}`;
        log.error('word vectors failed to load', { error });
        starting = null;
      });
      return starting;
    },

    async embed(texts, signal) {
      const wv = vectors;
      if (!wv || status !== 'ready') throw notReady();
      signal?.throwIfAborted();
      return texts.map((t) => embedOne(wv, t));
    },

    async embedQuery(text) {
      const wv = vectors;
      if (!wv || status !== 'ready') throw notReady();
      return embedOne(wv, text);
    },

    async close() {
      generation++;
      vectors = null;
      starting = null;
      status = 'idle';
      error = null;
    },
  };
}
