// The English NLP layer of the extraction stage (DESIGN §6): wink-nlp with its lite web
// model gives sentence boundaries, universal part-of-speech tags, lemmas, negation scope and
// entities (DATE, TIME, DURATION, ORDINAL, CARDINAL ...). Rules never see raw text: they read
// the tokens this module produces.
//
// The model is immutable data (~4 MB of JS) whose load costs tens of milliseconds, so it is
// loaded on first use and shared by the process: loading it per call would dominate the
// cost of extraction, and it holds no state a test could observe.
import { createRequire } from 'node:module';
import type {
  ItemEntity,
  ItemSentence,
  ItemToken,
  ItsFunction,
  Model,
  PartOfSpeech,
  WinkMethods,
} from 'wink-nlp';
import type WinkFn from 'wink-nlp';

export interface Tok {
  /** As written (after contraction expansion). */
  text: string;
  /** Lower case. */
  norm: string;
  lemma: string;
  pos: PartOfSpeech;
  /** Inside the scope of a negation ("I do n't have a [dog]"). */
  neg: boolean;
  /** Entity type the token belongs to (DATE, TIME, DURATION, ORDINAL, CARDINAL ...), or null. */
  ent: string | null;
  /** Index of the entity the token belongs to inside its sentence, or -1. */
  entIndex: number;
}

export interface EntityMention {
  type: string;
  value: string;
  /** Token range inside the sentence, inclusive. */
  start: number;
  end: number;
}

export interface AnalysedSentence {
  text: string;
  toks: Tok[];
  entities: EntityMention[];
}

let nlp: WinkMethods | null = null;
let loadMs = 0;

/** The process-wide wink-nlp instance, loaded on first use. */
export function englishNlp(): WinkMethods {
  if (nlp) return nlp;
  const t0 = performance.now();
  const require = createRequire(import.meta.url);
  const winkNLP = require('wink-nlp') as typeof WinkFn;
  const model = require('wink-eng-lite-web-model') as Model;
  nlp = winkNLP(model);
  loadMs = performance.now() - t0;
  return nlp;
}

/** How long the model took to load (0 before the first use): for the bench and README. */
export function modelLoadMs(): number {
  return loadMs;
}

// wink-nlp splits "don't" and "we're" but keeps "I'm", "I've", "I'll", "I'd" as one token
// (tagged as a proper noun): spelled out, the subject and the auxiliary are tagged properly.
const FIRST_PERSON_CONTRACTIONS: readonly [RegExp, string][] = [
  [/\b([Ii])['’]m\b/g, '$1 am'],
  [/\b([Ii])['’]ve\b/g, '$1 have'],
  [/\b([Ii])['’]ll\b/g, '$1 will'],
  [/\b([Ii])['’]d\b/g, '$1 would'],
  [/\bi\b/g, 'I'],
  // Chat without apostrophes: "im", "ive" ("id" is left alone: it is also a word).
  [/\b[Ii]m\b/g, 'I am'],
  [/\b[Ii]ve\b/g, 'I have'],
  [/\b(do|does|did|is|was|are|were|have|has|had|ca|could|would|should)nt\b/gi, "$1n't"],
];

/** Typographic quotes to ASCII and first-person contractions spelled out. */
export function normaliseText(text: string): string {
  let out = text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
  for (const [re, to] of FIRST_PERSON_CONTRACTIONS) out = out.replace(re, to);
  return out;
}

/** Sentences of a text with their tokens and entities. */
export function analyse(text: string): AnalysedSentence[] {
  const w = englishNlp();
  const its = w.its;
  const doc = w.readDoc(normaliseText(text));
  const out: AnalysedSentence[] = [];
  doc.sentences().each((s: ItemSentence) => {
    const raw: RawTok[] = [];
    let first = -1;
    s.tokens().each((t: ItemToken) => {
      if (first < 0) first = t.index();
      raw.push({
        tok: {
          text: t.out(),
          norm: t.out(its.normal) as string,
          lemma: (t.out(its.lemma as unknown as ItsFunction<string>) as string).toLowerCase(),
          pos: t.out(its.pos) as PartOfSpeech,
          neg: t.out(its.negationFlag) as unknown as boolean,
          ent: null,
          entIndex: -1,
        },
        spaced: (t.out(its.precedingSpaces) as string) !== '',
        unknown: t.out(its.type) === 'unk',
      });
    });
    const { toks, at } = joinSplitWords(raw);
    const entities: EntityMention[] = [];
    s.entities().each((e: ItemEntity) => {
      const [start, end] = e.out(its.span) as unknown as [number, number];
      const detail = e.out(its.detail) as unknown as { value: string; type: string };
      const m = {
        type: detail.type,
        value: detail.value,
        start: at[start - first]!,
        end: at[end - first]!,
      };
      for (let i = m.start; i <= m.end && i < toks.length; i++) {
        toks[i]!.ent = m.type;
        toks[i]!.entIndex = entities.length;
      }
      entities.push(m);
    });
    markMidSentenceNames(toks);
    markIngVerbs(toks);
    out.push({ text: s.out(), toks, entities });
  });
  return out;
}

interface RawTok {
  tok: Tok;
  /** Whitespace before it in the text. */
  spaced: boolean;
  /** A character wink's tokenizer does not know ("ń", "Ł", "ř"). */
  unknown: boolean;
}

const isLetters = (s: string) => /^\p{L}+$/u.test(s);

/**
 * wink's tokenizer cuts a word at a letter it does not know ("Gdańsk" → "Gda" "ń" "sk",
 * "Łódź"): the pieces, with no space between them, are one word again. A word that starts
 * with a capital is a name. `at` maps each of wink's token indexes to the joined token's.
 */
function joinSplitWords(raw: readonly RawTok[]): { toks: Tok[]; at: number[] } {
  const toks: Tok[] = [];
  const at: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    const prev = raw[i - 1];
    const glued =
      prev !== undefined &&
      !r.spaced &&
      (r.unknown || prev.unknown) &&
      isLetters(r.tok.text) &&
      isLetters(toks.at(-1)!.text);
    if (!glued) {
      toks.push({ ...r.tok });
      at.push(toks.length - 1);
      continue;
    }
    const last = toks.at(-1)!;
    last.text += r.tok.text;
    last.norm += r.tok.norm;
    last.lemma = last.norm;
    if (/^\p{Lu}/u.test(last.text)) last.pos = 'PROPN';
    at.push(toks.length - 1);
  }
  return { toks, at };
}

/**
 * A capitalised word inside a sentence is a name ("We use Postgres and React"): wink tags
 * some product and place names as verbs or adjectives by their lower-case reading.
 */
function markMidSentenceNames(toks: Tok[]): void {
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.norm === 'i' || t.ent !== null) continue;
    if (!/^\p{Lu}/u.test(t.text)) continue;
    const prev = toks[i - 1]!;
    // Not after a sentence-internal start ("Hi! I ...", quotes, a colon).
    if (prev.pos === 'PUNCT' && prev.norm !== ',' && prev.norm !== '(') continue;
    // Adjectives stay: "Canadian", "Thai" describe, they do not name.
    if (t.pos === 'VERB' || t.pos === 'NOUN') t.pos = 'PROPN';
  }
}

/** Where an -ing word opens a clause: the sentence's start, after punctuation, "and"/"but". */
const CLAUSE_OPENING = new Set(['PUNCT', 'CCONJ', 'SYM']);

/**
 * "planning to run a marathon", "hoping to move": wink tags a clause-opening -ing word as a
 * noun when its subject is left out; followed by "to" and a verb it is the verb of the clause.
 */
function markIngVerbs(toks: Tok[]): void {
  for (let i = 0; i < toks.length - 2; i++) {
    const t = toks[i]!;
    if (t.pos !== 'NOUN' || !/^\p{Ll}+ing$/u.test(t.text) || t.norm.length < 6) continue;
    if (toks[i + 1]!.norm !== 'to' || toks[i + 2]!.pos !== 'VERB') continue;
    const prev = toks[i - 1];
    if (prev && !CLAUSE_OPENING.has(prev.pos) && prev.norm !== 'i' && prev.norm !== 'am') continue;
    t.pos = 'VERB';
  }
}
