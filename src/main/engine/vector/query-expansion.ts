// Query expansion by word meaning (for the read path): each query term brings its nearest
// words from the static vectors, so a keyword search for "beverage" also looks for "drink"
// and "drinks". Stop words, numbers and words the vectors do not know bring nothing.

import { STOP_WORDS } from '../text/text.ts';
import type { WordVectors } from './word-vectors.ts';

export interface ExpansionTerm {
  /** The related word to search for as well. */
  word: string;
  /** The query term it came from. */
  from: string;
  /** Cosine similarity to that term (0..1): how much a match on it should count. */
  weight: number;
}

export interface ExpansionOptions {
  /** Related words per query term (default 3). */
  perTerm?: number;
  /** Similarity floor (default 0.6: below it neighbours drift to merely topical words). */
  minSimilarity?: number;
  /** Related words in all (default 12), the strongest kept. */
  maxTotal?: number;
}

const NUMBER = /\d/u;

/** Whether a term is worth expanding: a content word, not a number or a stop word. */
function expandable(term: string): boolean {
  return term.length > 1 && !NUMBER.test(term) && !STOP_WORDS.has(term);
}

/**
 * Related words for query terms, strongest first, without the terms themselves or
 * duplicates (a word reached from two terms keeps its best weight).
 */
export function expandQueryTerms(
  vectors: WordVectors,
  terms: readonly string[],
  options: ExpansionOptions = {},
): ExpansionTerm[] {
  const perTerm = Math.max(0, Math.floor(options.perTerm ?? 3));
  const minSimilarity = options.minSimilarity ?? 0.6;
  const maxTotal = Math.max(0, Math.floor(options.maxTotal ?? 12));
  const own = new Set(terms.map((t) => t.toLowerCase()));
  const best = new Map<string, ExpansionTerm>();
  for (const term of own) {
    if (!expandable(term)) continue;
    // Ask for a few more than needed: the query's own terms and stop words are skipped.
    let taken = 0;
    for (const n of vectors.neighbours(term, perTerm + own.size + 4, minSimilarity)) {
      if (taken >= perTerm) break;
      if (own.has(n.word) || !expandable(n.word)) continue;
      taken++;
      const prev = best.get(n.word);
      if (!prev || prev.weight < n.similarity) {
        best.set(n.word, { word: n.word, from: term, weight: n.similarity });
      }
    }
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight).slice(0, maxTotal);
}
