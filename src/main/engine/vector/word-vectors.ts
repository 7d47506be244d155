// Word meaning without a download (DESIGN §6, §12; README.md in this folder): static GloVe
// word vectors from the compact int8 asset. Used for query expansion, for mapping a question
// to the relations of typed facts, and as the embedder of facts, episodes and transcript rows
// until (or instead of) the sentence model.
//
// Cosines are computed on the int8 codes: each row is a normalised vector times its own
// scale, so cos(a, b) = dot(qa, qb) / (|qa| |qb|), with |q| precomputed at load. The int8
// error on a cosine is about 1e-3.

import { CHAT_FORMS, STOP_WORDS, words as tokenize } from '../text/text.ts';
import { RELATIONS, type Relation } from '../text/relations.ts';
import { readWordVectorAsset, type WordVectorData } from './word-vectors-asset.ts';

/** The model id stored with vectors this embedder makes (never mixed with another model's). */
export const WORD_VECTORS_MODEL_ID = 'cairn/wink-sg100d-100k-int8';

export interface RelationScore {
  relation: Relation;
  /** 0..1: how strongly the question's content words point to this relation. */
  score: number;
}

export interface WordVectors {
  readonly modelId: string;
  /** The asset file they were read from (a worker thread loads its own copy), or null. */
  readonly sourcePath: string | null;
  readonly dims: number;
  /** Words in the vocabulary. */
  readonly size: number;
  has(word: string): boolean;
  /** The word's unit vector (a fresh copy), or null when the word is not in the vocabulary. */
  vector(word: string): Float32Array | null;
  /** Cosine of two words, or null when either is not in the vocabulary. */
  similarity(a: string, b: string): number | null;
  /**
   * A unit vector for a text: the average of its content words' vectors weighted by smooth
   * inverse frequency (a / (a + p(w)), Arora et al. 2017), stop words and numbers left out.
   * null when no content word of the text is in the vocabulary.
   */
  embedText(text: string): Float32Array | null;
  /** Relations a question asks about, scores at or above `minScore`, best first. */
  relationsFor(question: string, minScore?: number): RelationScore[];
  /** Every relation's score for a text, in RELATIONS order (the raw relationsFor scores). */
  relationProfile(text: string): Float64Array;
  /** The SIF weight of a word (0..1; frequent words weigh less), 0 when unknown. */
  weight(word: string): number;
  /** Content words of a text as the vectors see them: lower-case, no stop words or numbers. */
  contentWords(text: string): string[];
}

/**
 * SIF smoothing constant. Arora et al. report flat results for a in 1e-4..1e-3; 1e-3 keeps
 * words past the first few hundred ranks near full weight.
 */
const SIF_A = 1e-3;
/**
 * Word probabilities are estimated from frequency ranks by Zipf's law, p(r) = 1 / (r · H),
 * H = ln(V) + γ the harmonic number of the source vocabulary (V ≈ 341k words).
 */
const ZIPF_H = Math.log(341_479) + 0.5772;
/**
 * Relation scores at or above this are returned by default. Chosen by measurement on our own
 * varied questions and non-questions (word-vectors.test.ts; README.md gives the figures).
 */
export const DEFAULT_RELATION_MIN_SCORE = 0.35;

/** Words whose relation rows are kept (31 floats each: about 2.5 MB at most). */
const RELATION_ROW_CACHE = 20_000;

const NUMBER = /\d/u;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += (a[j] as number) * (b[j] as number);
  return s;
}

/**
 * A word with its regular English inflection folded away (plural and third-person -s/-es/-ies,
 * -ed, -ing, final -e), so "hates" and "hate", "lives" and "live", "allergies" and "allergy"
 * count as the same word. Static vectors of inflections are often far apart (news text uses
 * them differently); this keeps a question and a description from missing each other over
 * grammar. Irregular forms are left to the vectors.
 */
export function inflectionKey(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && /(?:s|x|z|ch|sh)es$/u.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Words the common component is estimated from (the most frequent ones). */
const COMMON_COMPONENT_WORDS = 10_000;
const POWER_ITERATIONS = 12;

/**
 * The first principal component (uncentred) of the most frequent words' unit vectors, by
 * power iteration: the direction every text average leans to (Arora et al. 2017 remove it
 * from sentence vectors). Found once at load.
 */
function commonComponent(
  n: number,
  dims: number,
  codes: Int8Array,
  invNorm: Float32Array,
  addScaled: (out: Float32Array, i: number, scale: number) => void,
): Float32Array {
  let pc = new Float32Array(dims).fill(1 / Math.sqrt(dims));
  for (let it = 0; it < POWER_ITERATIONS; it++) {
    const next = new Float32Array(dims);
    for (let i = 0; i < n; i++) {
      // The word's unit vector as float32 (what addScaled would store) dotted with pc, without
      // storing it: the same sums in about half the time.
      const f = invNorm[i] as number;
      const o = i * dims;
      let along = 0;
      for (let j = 0; j < dims; j++) {
        along += Math.fround((codes[o + j] as number) * f) * (pc[j] as number);
      }
      addScaled(next, i, along);
    }
    let s = 0;
    for (const x of next) s += x * x;
    if (s === 0) break;
    const inv = 1 / Math.sqrt(s);
    pc = next.map((x) => x * inv);
  }
  return pc;
}

export function loadWordVectors(path: string): WordVectors {
  return createWordVectors(readWordVectorAsset(path), path);
}

export function createWordVectors(
  data: WordVectorData,
  sourcePath: string | null = null,
): WordVectors {
  const { dims, words, ranks, codes } = data;
  const count = words.length;

  const indexOf = new Map<string, number>();
  for (let i = 0; i < count; i++) indexOf.set(words[i] as string, i);
  const invNorm = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let s = 0;
    for (let j = i * dims, end = j + dims; j < end; j++) {
      const c = codes[j] as number;
      s += c * c;
    }
    invNorm[i] = s > 0 ? 1 / Math.sqrt(s) : 0;
  }

  const dotCodes = (a: number, b: number): number => {
    let s = 0;
    const oa = a * dims;
    const ob = b * dims;
    for (let j = 0; j < dims; j++) s += (codes[oa + j] as number) * (codes[ob + j] as number);
    return s * (invNorm[a] as number) * (invNorm[b] as number);
  };

  const lookup = (word: string): number | undefined => indexOf.get(word.toLowerCase());

  const weightAt = (i: number): number => {
    const p = 1 / (((ranks[i] as number) + 1) * ZIPF_H);
    return SIF_A / (SIF_A + p);
  };

  /** Adds `scale` × the unit vector of word i into `out`. */
  const addScaled = (out: Float32Array, i: number, scale: number): void => {
    const f = scale * (invNorm[i] as number);
    const o = i * dims;
    for (let j = 0; j < dims; j++) out[j] = (out[j] as number) + (codes[o + j] as number) * f;
  };

  const normalise = (v: Float32Array): Float32Array | null => {
    let s = 0;
    for (const x of v) s += x * x;
    if (s === 0) return null;
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < v.length; j++) v[j] = (v[j] as number) * inv;
    return v;
  };

  // Chat forms ("bday") stand for the words they shorten, which the vectors know.
  const contentWords = (text: string): string[] =>
    tokenize(text)
      .flatMap((w) => {
        const full = CHAT_FORMS.get(w);
        return full === undefined ? [w] : tokenize(full);
      })
      .filter((w) => !STOP_WORDS.has(w) && !NUMBER.test(w) && w.length > 1);

  const common = commonComponent(
    Math.min(count, COMMON_COMPONENT_WORDS),
    dims,
    codes,
    invNorm,
    addScaled,
  );

  const embed = (text: string): Float32Array | null => {
    const out = new Float32Array(dims);
    let any = false;
    for (const w of contentWords(text)) {
      const i = indexOf.get(w);
      if (i === undefined) continue;
      addScaled(out, i, weightAt(i));
      any = true;
    }
    if (!any) return null;
    // SIF's common component removal: the direction all texts share says nothing about any.
    const along = dot(out, common);
    for (let j = 0; j < dims; j++) out[j] = (out[j] as number) - along * (common[j] as number);
    return normalise(out);
  };

  // --- relations: each description's content words, looked up once ---
  const relationWords = RELATIONS.map((r) => {
    const idx = [
      ...new Set(
        contentWords(r.description)
          .map((w) => indexOf.get(w))
          .filter((i): i is number => i !== undefined),
      ),
    ];
    // Inflection keys computed once here, not for every question word that is compared.
    return {
      relation: r.name as Relation,
      idx,
      keys: idx.map((d) => inflectionKey(words[d] as string)),
    };
  });

  /**
   * How strongly one question word points to a relation: its best cosine with the
   * description's words, 1 for the same word or another inflection of it.
   */
  const bestMatch = (
    q: number,
    key: string,
    r: { idx: readonly number[]; keys: readonly string[] },
  ): number => {
    let best = 0;
    for (let k = 0; k < r.idx.length; k++) {
      const d = r.idx[k] as number;
      const sim = q === d || r.keys[k] === key ? 1 : dotCodes(q, d);
      if (sim > best) best = sim;
    }
    return best;
  };

  /**
   * One word's contribution to every relation's score, (similarity − mean) × SIF weight. A
   * word's row never changes, and the words of chat repeat: cached (bounded), so scoring a
   * text costs a lookup per word instead of a pass over every description word.
   */
  const relationRows = new Map<number, Float32Array>();
  const wordRelationRow = (qi: number): Float32Array => {
    const hit = relationRows.get(qi);
    if (hit) return hit;
    const key = inflectionKey(words[qi] as string);
    const sims = relationWords.map((r) => bestMatch(qi, key, r));
    const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
    const w = weightAt(qi);
    const row = Float32Array.from(sims, (s) => (s - mean) * w);
    if (relationRows.size >= RELATION_ROW_CACHE) relationRows.clear();
    relationRows.set(qi, row);
    return row;
  };

  /**
   * Relation scores of a question. A question word close to every relation (a generic word:
   * "times", "list") says nothing about any of them, so each word's similarities count only
   * above their mean over all relations (a hubness correction in the spirit of CSLS,
   * Conneau et al. 2018), weighted by the word's SIF weight; a relation scores its best word.
   */
  const scoreRelations = (question: string): Float64Array => {
    const scores = new Float64Array(relationWords.length);
    const q = new Set(
      contentWords(question)
        .map((w) => indexOf.get(w))
        .filter((i): i is number => i !== undefined),
    );
    for (const qi of q) {
      const row = wordRelationRow(qi);
      for (let r = 0; r < row.length; r++) {
        scores[r] = Math.max(scores[r] as number, row[r] as number);
      }
    }
    return scores;
  };

  // Each description as one text vector: breaks ties between relations that share a word
  // ("commute" is both how someone gets to work and what a vehicle is for).
  const relationCentroids = RELATIONS.map((r) => embed(r.description));

  return {
    modelId: WORD_VECTORS_MODEL_ID,
    sourcePath,
    dims,
    size: count,

    has: (word) => lookup(word) !== undefined,

    vector(word) {
      const i = lookup(word);
      if (i === undefined) return null;
      const out = new Float32Array(dims);
      addScaled(out, i, 1);
      return out;
    },

    similarity(a, b) {
      const i = lookup(a);
      const j = lookup(b);
      if (i === undefined || j === undefined) return null;
      return i === j ? 1 : dotCodes(i, j);
    },

    embedText: embed,

    relationProfile: (text) => scoreRelations(text),

    relationsFor(question, minScore = DEFAULT_RELATION_MIN_SCORE) {
      const scores = scoreRelations(question);
      const q = embed(question);
      const out: (RelationScore & { tie: number })[] = [];
      relationWords.forEach((r, i) => {
        const score = scores[i] as number;
        if (score < minScore || score <= 0) return;
        const c = relationCentroids[i];
        out.push({ relation: r.relation, score, tie: q && c ? dot(q, c) : 0 });
      });
      out.sort((a, b) => b.score - a.score || b.tie - a.tie);
      return out.map(({ relation, score }) => ({ relation, score }));
    },

    weight(word) {
      const i = lookup(word);
      return i === undefined ? 0 : weightAt(i);
    },

    contentWords,
  };
}

/** Sentence ends inside a chat message: ". ", "! ", "? ", new lines, a dash between clauses. */
const SENTENCE_END = /(?<=[.!?])\s+|\n+|\s[—–]\s/u;

/**
 * How much word meaning gives to the relations' scores beside the sentences' averaged
 * vectors: the relation scores say what a sentence is about (a boss, a pet, a diet), the
 * vectors how close its words are to the question's.
 */
const CLOSENESS_VECTOR_WEIGHT = 0.3;

/** A question as `closeness` compares it, prepared once for many passages. */
export interface PreparedQuestion {
  vector: Float32Array | null;
  profile: Float64Array;
}

export function prepareQuestion(words: WordVectors, question: string): PreparedQuestion {
  return { vector: words.embedText(question), profile: words.relationProfile(question) };
}

/** A passage as `closeness` reads it: each sentence's relation scores and averaged vector. */
export type AnalysedPassage = readonly { profile: Float64Array; vector: Float32Array | null }[];

export function analysePassage(words: WordVectors, passage: string): AnalysedPassage {
  return passage
    .split(SENTENCE_END)
    .filter((s) => s.trim() !== '')
    .map((s) => ({ profile: words.relationProfile(s), vector: words.embedText(s) }));
}

/**
 * How close a passage comes to a question at its closest sentence: the relations both are
 * about (product of their scores) plus a share of their averaged-vector cosine. A chat message
 * often says a fact in passing before a request ("we adopted a beagle last week. how do I
 * crate-train him?"); averaged over the whole message, the request drowns the fact.
 */
export function closeness(
  words: WordVectors,
  q: PreparedQuestion,
  passage: string | AnalysedPassage,
): number {
  const sentences = typeof passage === 'string' ? analysePassage(words, passage) : passage;
  let best = -Infinity;
  for (const { profile, vector } of sentences) {
    let rel = 0;
    for (let r = 0; r < profile.length; r++) {
      const a = q.profile[r] as number;
      const b = profile[r] as number;
      if (a > 0 && b > 0) rel += a * b;
    }
    const score = rel + (vector && q.vector ? CLOSENESS_VECTOR_WEIGHT * dot(q.vector, vector) : 0);
    if (score > best) best = score;
  }
  return best === -Infinity ? 0 : best;
}

/** Passages whose analysis is kept (a few KB each: the turns a user's questions come back to). */
const PASSAGE_CACHE = 2_048;

/**
 * Scores passages against a question by `closeness`, keeping each passage's analysis (by its
 * text, least recently used out): the same turns come back for a user's questions, and the
 * analysis is most of the cost.
 */
export function createClosenessScorer(
  words: WordVectors,
): (question: string, passages: readonly string[]) => number[] {
  const cache = new Map<string, AnalysedPassage>();
  const analysed = (text: string): AnalysedPassage => {
    let a = cache.get(text);
    if (a) {
      cache.delete(text);
    } else {
      a = analysePassage(words, text);
      if (cache.size >= PASSAGE_CACHE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(text, a);
    return a;
  };
  // The planner scores turns and then facts for the same question: prepare it once.
  let last: { question: string; prepared: PreparedQuestion } | null = null;
  return (question, passages) => {
    if (last?.question !== question)
      last = { question, prepared: prepareQuestion(words, question) };
    const q = last.prepared;
    return passages.map((p) => closeness(words, q, analysed(p)));
  };
}
