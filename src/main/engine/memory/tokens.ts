// Token counting for the memory budget (DESIGN §7: "a real tokenizer estimate"). cl100k_base
// is the BPE of the GPT-3.5/4 family; other providers' tokenizers differ by a few percent,
// which the budget absorbs. The ranks ship inside js-tiktoken (no download, works offline);
// they are encoded by our own BpeTokenizer, which gives the same tokens from compact tables
// (bpe-tokenizer.ts says why).
import { createRequire } from 'node:module';
import { type BpeRanks, BpeTokenizer } from './bpe-tokenizer.ts';

/** Above this many characters the count is extrapolated from a sample (BPE is O(n log n)+). */
export const EXACT_LIMIT_CHARS = 16_000;
const SAMPLE_CHARS = 4_000;

// The encoder is a pure, read-only table: loading it once per process and only on first use
// keeps start-up fast. Encoding keeps scratch buffers on the instance, and JavaScript runs
// one call at a time on a thread, so sharing it is safe.
let encoder: BpeTokenizer | null = null;

function getEncoder(): BpeTokenizer {
  if (encoder) return encoder;
  // createRequire keeps the load synchronous and lazy (an `import` would load it at start-up).
  const require = createRequire(import.meta.url);
  // The CJS build exports the ranks object itself; an ESM interop wrapper has it as default.
  const mod = require('js-tiktoken/ranks/cl100k_base') as BpeRanks | { default: BpeRanks };
  encoder = new BpeTokenizer('default' in mod ? mod.default : mod);
  return encoder;
}

/** Loads the tokenizer now (≈150 ms of CPU) so that the first memory request does not pay it. */
export function preloadTokenizer(): void {
  getEncoder();
}

/** Number of cl100k_base tokens in `text` (special-token strings are counted as plain text). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const enc = getEncoder();
  if (text.length <= EXACT_LIMIT_CHARS) return enc.count(text);
  // Fast path: measure the density on samples from the start, middle and end, and
  // extrapolate; rounded up with a small margin so a budget check stays on the safe side.
  const mid = Math.floor(text.length / 2);
  const samples = [
    text.slice(0, SAMPLE_CHARS),
    text.slice(mid - SAMPLE_CHARS / 2, mid + SAMPLE_CHARS / 2),
    text.slice(-SAMPLE_CHARS),
  ];
  let tokens = 0;
  let chars = 0;
  for (const s of samples) {
    tokens += enc.count(s);
    chars += s.length;
  }
  return Math.ceil((tokens / chars) * text.length * 1.05);
}

/**
 * The longest prefix of `text` that fits in `maxTokens` (cut at a word boundary when one is
 * near), with an ellipsis when something was cut. '' when not even one word fits.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  if (countTokens(text) <= maxTokens) return text;
  const enc = getEncoder();
  const head = text.length > EXACT_LIMIT_CHARS ? text.slice(0, maxTokens * 8) : text;
  const ids = enc.encode(head);
  // One token is kept free for the ellipsis.
  let cut = enc.decode(ids.slice(0, Math.max(0, maxTokens - 1)));
  // A cut inside a multi-byte character decodes to U+FFFD: drop it.
  cut = cut.replace(/\uFFFD+$/u, '');
  const space = cut.lastIndexOf(' ');
  if (space > cut.length * 0.6) cut = cut.slice(0, space);
  cut = cut.trimEnd();
  if (cut === '') return '';
  let out = `${cut}…`;
  while (out.length > 1 && countTokens(out) > maxTokens) {
    cut = cut.slice(0, -1).trimEnd();
    out = cut === '' ? '' : `${cut}…`;
  }
  return out;
}
