// Reading phrases out of a clause's tokens and writing facts in the third person. Shared by
// every rule, so a noun phrase or a subject is read one way everywhere.
import { verbLemma, type Clause, type Subject } from './clause.ts';
import type { Tok } from './nlp.ts';
import { isIngNoun, isTeamNoun, singular } from './vocabulary.ts';

export interface Phrase {
  /** Without a leading article ("green tea", "Honda Civic"). */
  text: string;
  /** Last word, lower case ("tea"). */
  head: string;
  /** Index after the phrase. */
  end: number;
  /** Every word capitalised, as names and places are written. */
  proper: boolean;
  /** Started with "no" ("I have no pets"). */
  none: boolean;
  /**
   * Said of one countable thing or of several: an article, a possessive or a number before
   * it, or a plural head ("a dog", "our cat", "two hens", "chickens"). A bare singular is a
   * mass or generic use ("leftover roast chicken", "some lamb"). Names count as countable.
   */
  countable: boolean;
}

const PHRASE_BREAKERS = new Set([
  'most',
  'every',
  'each',
  'all',
  'many',
  'several',
  'last',
  'next',
  'this',
  'other',
]);
const QUANTIFIERS = new Set([
  'lot',
  'lots',
  'bit',
  'plenty',
  'ton',
  'tons',
  'couple',
  'bunch',
  'cup',
  'cups',
  'glass',
  'glasses',
  'mug',
  'mugs',
  'pint',
  'pints',
  'bottle',
  'bottles',
  'pair',
]);
/** Words that make a number rough: "like 4 cups", "about two glasses", "around 3 litres". */
const APPROXIMATORS = new Set(['like', 'about', 'around', 'roughly', 'approximately', 'maybe']);
const ARTICLES = new Set(['a', 'an', 'the', 'some', 'this', 'that', 'these', 'those', 'any']);
const POSSESSIVE_SWAP: Record<string, string> = {
  my: 'their',
  our: 'their',
  me: 'them',
  us: 'them',
  myself: 'themselves',
  mine: 'theirs',
  i: 'they',
  we: 'they',
};

const isCapitalised = (t: Tok) => /^\p{Lu}/u.test(t.text);
const isWordish = (t: Tok | undefined) =>
  t !== undefined &&
  (t.pos === 'ADJ' ||
    t.pos === 'NOUN' ||
    t.pos === 'PROPN' ||
    t.pos === 'NUM' ||
    t.pos === 'X' ||
    t.pos === 'SYM');

/** Tokens joined back into text ("do n't" → "don't", "Rome ," → "Rome,"). */
export function joinTokens(toks: readonly Tok[]): string {
  let out = '';
  for (const [i, t] of toks.entries()) {
    // "5k": wink splits a distance in thousands from its number.
    const thousands = t.norm === 'k' && toks[i - 1]?.pos === 'NUM';
    const glue =
      /^(?:[,.;:!?)%]|n't|'s|'re|'ve|'ll|'d|'m)$/i.test(t.text) || out.endsWith('(') || thousands;
    out += (out === '' || glue ? '' : ' ') + t.text;
  }
  return out.replace(/\s*-\s*/g, '-');
}

/**
 * The noun phrase starting at `from`: optional article or "my", adjectives and nouns
 * ("a new Honda Civic", "green tea"). A token tagged as a verb counts as a modifier when a
 * noun follows (wink tags "green" in "green tea" as a verb). Null when there is none.
 */
export function nounPhrase(toks: readonly Tok[], from: number): Phrase | null {
  let i = from;
  let none = false;
  const words: Tok[] = [];
  if (toks[i]?.norm === 'no') {
    none = true;
    i++;
  }
  // "like 4 cups of coffee", "about two glasses": a rough number is still a number.
  if (APPROXIMATORS.has(toks[i]?.norm ?? '') && toks[i + 1]?.pos === 'NUM') i++;
  let determined = false;
  while (toks[i] && (ARTICLES.has(toks[i]!.norm) || toks[i]!.norm in POSSESSIVE_SWAP)) {
    if (toks[i]!.norm in POSSESSIVE_SWAP) words.push(toks[i]!);
    // "some" before a singular is a quantity of stuff ("some chicken"), not one thing.
    if (toks[i]!.norm !== 'some' && toks[i]!.norm !== 'any') determined = true;
    i++;
  }
  const start = words.length;
  while (i < toks.length) {
    const t = toks[i]!;
    const next = toks[i + 1];
    // "yoga most mornings", "tea every day": a quantifier starts another phrase.
    if (words.length > start && PHRASE_BREAKERS.has(t.norm)) break;
    // "a night shift nurse", "my morning coffee": a time that opens a compound describes it.
    const timeModifier =
      words.length === start &&
      (t.ent === 'TIME' || t.ent === 'DATE') &&
      t.pos === 'NOUN' &&
      next?.pos === 'NOUN' &&
      next.ent === null;
    if (
      isWordish(t) &&
      (timeModifier || (t.ent !== 'DATE' && t.ent !== 'TIME' && t.ent !== 'DURATION'))
    ) {
      words.push(t);
      i++;
    } else if (
      t.pos === 'VERB' &&
      (next?.pos === 'NOUN' || next?.pos === 'PROPN') &&
      t.norm !== 'named' &&
      t.norm !== 'called'
    ) {
      words.push(t);
      i++;
    } else if (t.pos === 'VERB' && isCapitalised(t) && words.length > start) {
      // Product names wink reads as verbs ("GitHub Actions", "React").
      words.push(t);
      i++;
    } else if ((t.text === '-' || t.text === '&') && isWordish(next) && words.length > start) {
      words.push(t);
      i++;
    } else break;
  }
  if (words.length === start) return null;
  // "a lot of coffee", "a couple of cats", "4 cups of coffee": the phrase is what comes after "of".
  const counted = words.length === start + 2 && words[start]!.pos === 'NUM' ? 1 : 0;
  const measure = words[start + counted]!;
  if (
    words.length === start + 1 + counted &&
    QUANTIFIERS.has(measure.norm) &&
    toks[i]?.norm === 'of'
  ) {
    const inner = nounPhrase(toks, i + 1);
    if (inner) return inner;
  }
  const head = words.at(-1)!;
  const body = words.slice(start);
  const proper = body.every((w) => isCapitalised(w) || w.pos === 'NUM' || w.text === '-');
  return {
    text: joinTokens(words.map((w) => ({ ...w, text: swapPronoun(w) }))),
    head: head.norm,
    end: i,
    proper,
    none,
    countable: determined || proper || body[0]!.pos === 'NUM' || singular(head.norm) !== head.norm,
  };
}

/** "guitar, piano and drums": noun phrases joined by commas and and/or. */
export function nounList(toks: readonly Tok[], from: number): Phrase[] {
  const out: Phrase[] = [];
  let i = from;
  for (;;) {
    const np = nounPhrase(toks, i);
    if (!np) break;
    out.push(np);
    i = np.end;
    while (toks[i] && (toks[i]!.norm === ',' || toks[i]!.norm === 'and' || toks[i]!.norm === 'or'))
      i++;
    if (i === np.end) break;
  }
  return out;
}

/** A capitalised name ("Priya Raman", "Biscuit"), also when wink tags part of it otherwise. */
export function properName(toks: readonly Tok[], from: number): Phrase | null {
  let i = from;
  const words: Tok[] = [];
  while (toks[i] && isCapitalised(toks[i]!) && toks[i]!.pos !== 'PUNCT' && toks[i]!.norm !== 'i') {
    if (toks[i]!.ent === 'DATE' || toks[i]!.ent === 'TIME') break;
    words.push(toks[i]!);
    i++;
  }
  if (words.length === 0) return null;
  return {
    text: joinTokens(words),
    head: words.at(-1)!.norm,
    end: i,
    proper: true,
    none: false,
    countable: true,
  };
}

/** A place after "in"/"to"/"from": capitalised words, with "the" or a region ("Austin, Texas"). */
export function placeName(toks: readonly Tok[], from: number): Phrase | null {
  let i = from;
  if (toks[i]?.norm === 'the') i++;
  const first = properName(toks, i);
  if (!first) return null;
  if (toks[first.end]?.norm === ',') {
    // "Austin, Texas": a short capitalised region that is not the subject of a new clause.
    const region = properName(toks, first.end + 1);
    const after = region ? toks[region.end] : undefined;
    if (region && region.end - first.end <= 3 && after?.pos !== 'VERB' && after?.pos !== 'AUX') {
      return { ...region, text: `${first.text}, ${region.text}` };
    }
  }
  return first;
}

export function swapPronoun(t: Tok): string {
  const swapped = POSSESSIVE_SWAP[t.norm];
  return swapped ?? t.text;
}

/** First person → third person in a run of tokens ("my kids" → "their kids"). */
export function thirdPersonText(toks: readonly Tok[]): string {
  return joinTokens(toks.map((t) => ({ ...t, text: swapPronoun(t) })));
}

/** How a subject is written in a fact ("User", "User's sister Ana", "Priya"). */
export function subjectText(s: Subject): string {
  switch (s.kind) {
    case 'user':
      return 'User';
    case 'relative':
      return `User's ${s.noun}${s.name ? ` ${s.name}` : ''}`;
    case 'named':
      return s.name;
    case 'possession':
      return `User's ${s.noun}`;
    case 'thing':
      return s.noun;
    case 'other':
      return 'Someone';
  }
}

/** The subject as stored in the subject column: "user", "user's sister" (lower case key). */
export function subjectKey(s: Subject): string | null {
  if (s.kind === 'user') return 'user';
  if (s.kind === 'relative') return `user's ${s.noun}`;
  return null;
}

const IRREGULAR_THIRD: Record<string, string> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  be: 'is',
  am: 'is',
};

/** "bike to work" → "bikes to work": the first verb conjugated for a third-person subject. */
export function conjugate(phrase: string): string {
  const m = /^(\S+)(.*)$/s.exec(phrase);
  if (!m) return phrase;
  const verb = m[1]!.toLowerCase();
  let v: string;
  if (IRREGULAR_THIRD[verb]) v = IRREGULAR_THIRD[verb];
  else if (/(?:s|sh|ch|x|z|o)$/.test(verb)) v = verb + 'es';
  else if (/[^aeiou]y$/.test(verb)) v = verb.slice(0, -1) + 'ies';
  else v = verb + 's';
  return v + (m[2] ?? '');
}

/** "a"/"an" for a phrase. */
export function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) && !/^(?:uni|use|one|eu)/i.test(phrase) ? 'an' : 'a';
}

/** Index of the first token at or after `from` whose lower-case form is `word`, or -1. */
export function indexOfWord(toks: readonly Tok[], word: string, from = 0): number {
  for (let i = from; i < toks.length; i++) if (toks[i]!.norm === word) return i;
  return -1;
}

const FILLER_ADVERBS = new Set([
  'also',
  'just',
  'really',
  'actually',
  'finally',
  'even',
  'totally',
]);

const FIRST_PERSON_AUX: Record<string, string> = {
  am: 'is',
  are: 'is',
  "'m": 'is',
  "'re": 'is',
  were: 'was',
  have: 'has',
  "'ve": 'has',
  do: 'does',
};

/**
 * The clause's predicate in the third person, for a subject that was "I"/"we":
 * "can't do meetings before 10am", "works from home on Mondays", "is learning Korean".
 */
export function predicateText(c: Clause, from = c.subjectEnd, to = c.toks.length): string {
  const toks = c.toks.slice(from, to);
  while (toks.length && toks.at(-1)!.pos === 'PUNCT') toks.pop();
  // wink keeps a full stop on a time at the end of a sentence ("10am.").
  const last = toks.at(-1);
  if (last && last.text.length > 1 && last.text.endsWith('.')) {
    toks[toks.length - 1] = { ...last, text: last.text.slice(0, -1) };
  }
  const words: Tok[] = [];
  let verbDone = false;
  for (const t of toks) {
    // "also started", "just moved": fillers that add nothing to a stored fact.
    if (!verbDone && t.pos === 'ADV' && FILLER_ADVERBS.has(t.norm)) continue;
    if (!verbDone && FIRST_PERSON_AUX[t.norm] && c.subject.kind === 'user') {
      words.push({ ...t, text: FIRST_PERSON_AUX[t.norm]! });
      verbDone = true;
      continue;
    }
    if (!verbDone && (t.pos === 'AUX' || t.norm === "n't" || t.norm === 'not')) {
      verbDone = t.pos === 'AUX' || verbDone;
      words.push(t);
      continue;
    }
    if (
      !verbDone &&
      (t.pos === 'VERB' || (words.every((w) => w.pos === 'ADV') && t.pos === 'NOUN'))
    ) {
      const past = t.norm !== t.lemma && !t.norm.endsWith('s');
      words.push({ ...t, text: past || c.subject.kind !== 'user' ? t.text : conjugate(t.norm) });
      verbDone = true;
      continue;
    }
    words.push({ ...t, text: swapPronoun(t) });
  }
  return joinTokens(words);
}

/** "hiking", "playing chess": an -ing form that names something done ("morning" does not). */
export function isActivity(t: Tok): boolean {
  return (
    t.norm.endsWith('ing') &&
    t.norm.length > 4 &&
    (t.pos === 'VERB' || t.pos === 'NOUN') &&
    !isIngNoun(t.norm)
  );
}

/** The index after any commas and "and" from `i` ("..., and a cat called Tom"). */
export function afterListJoin(toks: readonly Tok[], i: number): number {
  let j = i;
  while (toks[j]?.norm === ',' || toks[j]?.norm === 'and') j++;
  return j;
}

/**
 * The writer's own team as a clause's subject: "our team uses dbt", "my squad deploys on
 * Thursdays", "our data team is on Snowflake", "we as a team use Jira". The writer works
 * there, so what the team uses or does at set times is the user's tool, stack or schedule,
 * as with "we". Returns the clause read with the user ("we") as its subject, its verb in the
 * base form as after "we", and the noun a fact names the team by; null for any other subject,
 * someone else's team included ("their team", "my brother's team").
 */
export function ownTeam(c: Clause): { clause: Clause; noun: string } | null {
  const s = c.subject;
  if (s.kind === 'possession' && !s.name && isTeamNoun(s.noun.split(' ').at(-1) ?? '')) {
    return { clause: asWe(c, c.verbAt), noun: s.noun };
  }
  // "we as a team use Jira": wink may read the verb after the aside as a noun.
  const as = c.subjectEnd;
  const article = c.toks[as + 1]?.norm;
  const noun = c.toks[as + 2]?.norm ?? '';
  if (
    s.kind !== 'user' ||
    !s.plural ||
    c.toks[as]?.norm !== 'as' ||
    (article !== 'a' && article !== 'the') ||
    !isTeamNoun(noun)
  )
    return null;
  const verbAt = c.verbAt > as + 2 ? c.verbAt : as + 3;
  if (!c.toks[verbAt] || c.toks[verbAt]!.pos === 'PUNCT') return null;
  return { clause: asWe(c, verbAt, as + 3), noun };
}

/** The clause with "we" as its subject and its verb at `verbAt` in the base form ("deploys" → "deploy"). */
function asWe(c: Clause, verbAt: number, subjectEnd = c.subjectEnd): Clause {
  const verb = c.toks[verbAt];
  if (!verb) return { ...c, subject: { kind: 'user', plural: true }, subjectEnd };
  const lemma = verb.pos === 'AUX' ? verb.lemma : verbLemma(verb);
  const base =
    verb.pos === 'AUX' ? verb : { ...verb, text: lemma, norm: lemma, pos: 'VERB' as const };
  return {
    ...c,
    toks: c.toks.map((t, i) => (i === verbAt ? base : t)),
    subject: { kind: 'user', plural: true },
    subjectEnd,
    verbAt,
    verb: c.verbAt === verbAt ? c.verb : lemma,
  };
}

/** A fact's text about the user said of their team: "User uses dbt" → "User's team uses dbt". */
export function teamText(text: string, noun: string): string {
  return text.replace(/^User /u, `User's ${noun} `);
}
