// The embedder the vector and memory unit tests run on: the tiny fixture model
// (test/fixtures/tiny-model.ts, from ensureTinyModel), loaded offline, no log output.
import type { EmbedderOptions } from '../../src/main/engine/vector/embedder.ts';
import { silentLogger } from '../../src/main/engine/logger.ts';
import { TINY_MODEL_ID } from '../fixtures/tiny-model.ts';

/** createEmbedder options for the tiny model under `modelRoot`, its cache in `cacheDir`. */
export function tinyEmbedderOptions(
  modelRoot: string,
  cacheDir: string,
  over: Partial<EmbedderOptions> = {},
): EmbedderOptions {
  return {
    backend: 'transformers',
    modelId: TINY_MODEL_ID,
    cacheDir,
    localModelPath: modelRoot,
    allowRemoteModels: false,
    logger: silentLogger,
    ...over,
  };
}
