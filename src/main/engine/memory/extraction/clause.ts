// Clauses of a sentence, each with who it is about and how it is said (DESIGN §6). A rule
// only ever sees a clause that states something: the engine drops questions, hypotheticals
// and reported speech, and tells a rule whether the clause is negated, says that something
// ended ("no longer", "used to") or is planned ("will", "going to").
import type { AnalysedSentence, Tok } from './nlp.ts';
import { isProfessional, personNoun, type PersonRelation } from './vocabulary.ts';

export type Subject =
  /** "I" or "we": the speaker of the message. */
  | { kind: 'user'; plural: boolean }
  /** "my sister (Ana)", "our dog Rex": someone the speaker names by their relation. */
  | { kind: 'relative'; relation: PersonRelation; noun: string; name: string | null }
  /**
   * "my commute", "my favorite band", "our stack": a thing of the speaker's; with a name when
   * one follows it ("my head of department, Mr Okafor,").
   */
  | { kind: 'possession'; noun: string; name?: string | null }
  /** "Priya", "Tom": someone named without a relation. */
  | { kind: 'named'; name: string }
  /** "coffee" (makes me jittery): a thing. */
  | { kind: 'thing'; noun: string }
  /** he, she, you, it, this ...: nobody the speaker states a fact about. */
  | { kind: 'other' };

/** A clause as the rules read it: who it is about, its verb group and what kind of saying it is. */
export interface Clause extends Predicate {
  sentence: AnalysedSentence;
  toks: Tok[];
  subject: Subject;
  /** Index (in toks) just after the subject. */
  subjectEnd: number;
  question: boolean;
  /** Inside what someone else said or thought ("Tom said he moved to Rome"). */
  reported: boolean;
  /**
   * A professional said it about the speaker ("the physio says my knee needs rest"): the
   * reporter's noun. Such a clause is not `reported`: it states a fact about the user.
   */
  attestedBy: string | null;
  /** "I" left out, as people write in chat ("just moved to Porto", "settling into Austin"). */
  implicitSubject: boolean;
  /** A request to the assistant ("please never put X in recipes for me", "write me a poem"). */
  imperative: boolean;
}

const HYPOTHETICAL_OPENERS = new Set([
  'if',
  'unless',
  'suppose',
  'supposing',
  'imagine',
  'assuming',
  'pretend',
  'whether',
  'hypothetically',
  'maybe',
  'perhaps',
  'probably',
  'possibly',
  'wish',
]);
const HYPOTHETICAL_MODALS = new Set(['would', 'might', 'may', 'could', 'should', "'d"]);
const FUTURE_MODALS = new Set(['will', 'shall', "'ll", 'wo']);
/** Verbs after which the rest of the sentence is someone's words or beliefs, not a fact. */
const REPORTING_VERBS = new Set([
  'say',
  'tell',
  'think',
  'believe',
  'claim',
  'hear',
  'guess',
  'suppose',
  'wonder',
  'doubt',
  'mention',
  'reckon',
  'warn',
  'insist',
  'wish',
  'dream',
  'imagine',
  'pretend',
  'ask',
]);
/** Verbs of saying that, with "I" and about "I", hedge the writer's own statement ("I think I'm ..."). */
const HEDGES = new Set(['think', 'guess', 'reckon', 'suppose', 'believe']);
/** Verbs of intention: "I plan to / want to / hope to <verb>" is a plan. */
const INTENT_VERBS = new Set(['plan', 'want', 'intend', 'aim', 'hope', 'decide', 'need']);
const BOUNDARY_WORDS = new Set([
  'and',
  'but',
  'so',
  'because',
  'cause',
  'since',
  'although',
  'though',
  'while',
  'whereas',
  'that',
  'or',
  'if',
  'unless',
  'when',
]);
/** What may stand between two clauses: the boundary words, commas, dashes, "now", "then", "also". */
const CONNECTORS = new Set([...BOUNDARY_WORDS, ',', 'now', 'then', 'also', '-', '—', '–']);
const LEADING_FILLERS = new Set([
  'so',
  'also',
  'now',
  'then',
  'well',
  'anyway',
  'actually',
  'recently',
  'lately',
  'finally',
  'currently',
  'btw',
  'fyi',
  'tbh',
  'honestly',
  'oh',
  'ok',
  'okay',
  'yeah',
  'yes',
  'and',
  'but',
  'because',
  'cause',
  'since',
  'although',
  'though',
  'while',
  'whereas',
  'that',
  'when',
  'as',
  'plus',
  'still',
  'honestly',
  'just',
  'today',
  'tonight',
  'yesterday',
]);
const FREQUENCY_ADVERBS = new Set([
  'also',
  'really',
  'still',
  'just',
  'currently',
  'now',
  'already',
  'usually',
  'often',
  'always',
  'sometimes',
  'recently',
  'finally',
  'actually',
  'normally',
  'typically',
  'generally',
  'mostly',
  'officially',
  'totally',
  'absolutely',
  'truly',
  'definitely',
  'even',
  'only',
  'mainly',
  'rarely',
  'regularly',
  'occasionally',
  'ever',
  'both',
  'all',
]);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'he', 'she', 'they', 'you', 'it', 'this', 'that']);
const POSSESSIVES = new Set(['my', 'our', 'his', 'her', 'their', 'your']);
const BE = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "'m", "'s", "'re"]);

/** Parts of the day, one or every ("morning", "Saturday mornings"). */
const PARTS_OF_DAY = /^(?:morning|afternoon|evening|night)s?$/;
/**
 * Times that recur, one or every: parts of the day, days of the week, weekends and seasons
 * ("Weekends I ...", "Sundays we ...", "Summers we ..."). wink tags them as nouns, or as names
 * when they open a sentence, and gives them no DATE entity.
 */
const TIME_NOUNS =
  /^(?:morning|afternoon|evening|night|weeknight|weekend|weekday|lunchtime|monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring|autumn)s?$/;
/** Words that say how many of the times ("Most evenings", "Some weekends"). */
const TIME_QUANTIFIERS = new Set(['most', 'some', 'many', 'these', 'all', 'weekday']);
/** Who may follow a leading time: "Weekends I ...", "Mornings my dad ...". */
const SUBJECT_AFTER_TIME = new Set(['i', 'we', 'my', 'our']);

const isVerbish = (t: Tok | undefined) => t !== undefined && (t.pos === 'VERB' || t.pos === 'AUX');
const isNominal = (t: Tok | undefined) =>
  t !== undefined && (t.pos === 'NOUN' || t.pos === 'PROPN');

/** Whether a clause may start at toks[i] (after any connectors). */
function startsClause(toks: readonly Tok[], i: number): boolean {
  let j = i;
  while (j < toks.length && CONNECTORS.has(toks[j]!.norm)) j++;
  const t = toks[j];
  if (!t) return false;
  if (SUBJECT_PRONOUNS.has(t.norm) && t.norm !== 'that' && t.norm !== 'this') return true;
  // "..., and there's a deadline on Friday": an existential opens a clause of its own.
  if (t.norm === 'there' && EXISTENTIAL_BE.has(toks[j + 1]?.norm ?? '')) return true;
  if (POSSESSIVES.has(t.norm)) {
    // "my sister lives", "our cat is": a possessive noun phrase followed by a verb.
    for (let k = j + 1; k < Math.min(toks.length, j + 6); k++) {
      if (isVerbish(toks[k])) return true;
      if (toks[k]!.pos === 'PUNCT' && toks[k]!.norm !== ',') return false;
    }
    return false;
  }
  // "..., the heat is unreal": a determiner opens a noun phrase that is a new subject.
  if (t.norm === 'the' && isNominal(toks[j + 1])) return startsClause(toks, j + 1);
  if (isNominal(t)) {
    for (let k = j + 1; k < Math.min(toks.length, j + 4); k++) {
      if (isVerbish(toks[k])) return true;
      if (!isNominal(toks[k]) && toks[k]!.pos !== 'ADJ') return false;
    }
  }
  return false;
}

const EXISTENTIAL_BE = new Set(["'s", 'is', 'are', 'was', 'were', "'re", 'will', "'ll"]);

/** Adverbs that may sit between a comma and a second predicate ("..., just finished X"). */
const PREDICATE_ADVERBS = new Set(['just', 'finally', 'also', 'then', 'since', 'recently']);

/**
 * "lives in Rome and works as a nurse", "we did it, moved to Glasgow": a second predicate of
 * the same subject after "and" (any verb) or a comma (a past-tense verb: a participle phrase
 * such as ", based in Berlin" or ", followed by" describes, it does not state).
 */
function sharesSubject(toks: Tok[], i: number): boolean {
  const t = toks[i]!;
  if (t.norm === 'and') return isVerbish(toks[i + 1]) && toks[i + 1]!.pos === 'VERB';
  if (t.norm !== ',' || closesApposition(toks, i)) return false;
  let j = i + 1;
  while (toks[j] && toks[j]!.pos === 'ADV' && PREDICATE_ADVERBS.has(toks[j]!.norm)) j++;
  const v = toks[j];
  if (!v || v.pos !== 'VERB' || !isPastForm(v) || toks[j + 1]?.norm === 'by') return false;
  return !PARTICIPLE_ADJUNCTS.has(v.lemma);
}
/** Whether the comma at i closes a name set off by commas ("my tutor, Dr Amadi, signed"). */
function closesApposition(toks: Tok[], i: number): boolean {
  let k = i - 1;
  while (k >= 0 && toks[k]!.pos === 'PROPN') k--;
  // "my oldest, Xiomara, got": a superlative names the person as well as a noun does.
  const named = toks[k - 1];
  return k < i - 1 && toks[k]?.norm === ',' && (isNominal(named) || named?.pos === 'ADJ');
}

/** Participles that open a description of the noun before them, not a new predicate. */
const PARTICIPLE_ADJUNCTS = new Set(['base', 'locate', 'call', 'name', 'know', 'make', 'found']);

/** "said", "told me", "says that": a verb of saying whose complement starts after it. */
function afterReporting(toks: Tok[], i: number): boolean {
  let j = i - 1;
  if (toks[j]?.norm === 'me' || toks[j]?.norm === 'us') j--;
  const v = toks[j];
  return v !== undefined && v.pos === 'VERB' && REPORTING_VERBS.has(v.lemma);
}

/** Whether toks[from..to) only say when: "Weekend mornings", "Every Sunday", "On Saturdays". */
function onlyTime(toks: readonly Tok[], from: number, to: number): boolean {
  if (to <= from) return false;
  for (let k = from; k < to; k++) {
    const t = toks[k]!;
    const when =
      t.ent === 'DATE' ||
      t.ent === 'TIME' ||
      TIME_NOUNS.test(t.norm) ||
      TIME_QUANTIFIERS.has(t.norm) ||
      t.norm === 'every' ||
      (t.pos === 'ADP' && k === from);
    if (!when) return false;
  }
  return true;
}

/** Splits a sentence into clause token ranges [start, end). */
function clauseRanges(toks: Tok[]): { start: number; end: number; inherits: boolean }[] {
  const out: { start: number; end: number; inherits: boolean }[] = [];
  let start = 0;
  let inherits = false;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    const hard = t.norm === ';' || t.norm === '—' || t.norm === '–' || t.norm === ':';
    const soft =
      t.norm === ',' || (t.norm === '-' && !insideCompound(toks, i)) || BOUNDARY_WORDS.has(t.norm);
    const sharedSubject = sharesSubject(toks, i);
    // "Doc said my blood pressure is high": the complement is a clause of its own.
    const complement = !soft && afterReporting(toks, i) && startsClause(toks, i);
    // "..., haven't seen daylight": a new clause with "I" left out.
    const opens =
      startsClause(toks, i + 1) || sharedSubject || (t.norm === ',' && opensPerfect(toks, i + 1));
    // "Weekend mornings, I run": a time before the subject is the clause's own.
    const afterTime = t.norm === ',' && onlyTime(toks, start, i);
    if (hard || complement || (soft && opens && !afterTime)) {
      if (i > start) out.push({ start, end: i, inherits });
      start = hard ? i + 1 : i;
      inherits = !hard && sharedSubject;
    }
  }
  if (start < toks.length) out.push({ start, end: toks.length, inherits });
  return out;
}

interface SubjectParse {
  subject: Subject;
  end: number;
  hypothetical: boolean;
  implicit?: boolean;
  imperative?: boolean;
}

/** Words before a request's verb: "please never put", "don't ever use", "always add". */
const REQUEST_LEAD = new Set([
  'please',
  'pls',
  'plz',
  'never',
  'always',
  'do',
  "n't",
  'not',
  'ever',
]);

/**
 * Where the subject starts after a leading adverbial: a date or time ("Every Thursday 10 to
 * 12 I ..."), or a short prepositional phrase before "I"/"we" ("On Saturdays I ...", "During
 * lockdown we ..."). Returns `i` unchanged when there is none.
 */
function afterLeadingAdverbial(toks: Tok[], i: number): number {
  // "Back in Recife my grandmother ...", "back home in Accra we ...": where, then who.
  let from = i;
  if (toks[from]?.norm === 'back' && toks[from + 1]?.norm === 'home') from += 2;
  else if (toks[from]?.norm === 'back') from++;
  const t = toks[from];
  if (!t || t.pos !== 'ADP') return i;
  for (let k = from + 1; k < Math.min(toks.length, from + 6); k++) {
    const w = toks[k]!;
    if (w.norm === 'i' || w.norm === 'we') return k;
    // "In Leeds my sister ...": a possessive subject after a place or time with a name or noun.
    if ((w.norm === 'my' || w.norm === 'our') && k > from + 1) return k;
    const filler =
      w.pos === 'DET' ||
      w.pos === 'NOUN' ||
      w.pos === 'PROPN' ||
      w.pos === 'ADJ' ||
      w.pos === 'NUM' ||
      w.norm === ',';
    if (!filler) return i;
  }
  return i;
}

/**
 * Whether a clause that starts at toks[i] with no subject is the writer's own, with "I" left
 * out as chat does: a past-tense verb ("Sold the car", "just bought a Vespa"), "had" with an
 * object ("had a couple of pints"), or an -ing form that is not itself a subject ("Settling
 * into Austin", but not "Cycling to work saves money"). A bare verb is a request instead
 * ("Write me a poem", "Help me plan"), and so is anything the engine reads as a question.
 */
function dropsSubject(toks: Tok[], i: number): boolean {
  const t = toks[i];
  if (!t) return false;
  const next = toks[i + 1];
  if (t.norm === 'had') {
    return next !== undefined && (next.pos === 'DET' || next.pos === 'NOUN' || next.pos === 'ADJ');
  }
  // "been learning Portuguese for a month": "I've" left out of a perfect.
  // "been vegetarian for years", "been a nurse since 2019": the same with a complement.
  if (t.norm === 'been') {
    return next !== undefined && ['VERB', 'ADP', 'ADJ', 'NOUN', 'DET'].includes(next.pos);
  }
  if (opensPerfect(toks, i)) return true;
  if (t.pos !== 'VERB') return false;
  if (isPastForm(t)) return next?.norm !== 'by';
  if (t.norm.endsWith('ing') && t.norm.length > 4) {
    // A gerund subject has its own finite verb before the clause ends ("but ..." is another).
    for (let k = i + 1; k < toks.length && toks[k]!.pos !== 'PUNCT'; k++) {
      const w = toks[k]!;
      if (w.norm === 'but' || w.norm === 'so' || w.norm === 'because') break;
      if (w.pos === 'AUX' || (w.pos === 'VERB' && /s$/.test(w.norm) && w.norm !== w.lemma))
        return false;
    }
    return true;
  }
  return false;
}

/** "haven't seen daylight in 2 weeks", "have finally finished": a perfect with "I" left out. */
function opensPerfect(toks: readonly Tok[], i: number): boolean {
  if (toks[i]?.norm !== 'have') return false;
  let j = i + 1;
  while (toks[j] && (toks[j]!.norm === "n't" || toks[j]!.norm === 'not' || toks[j]!.pos === 'ADV'))
    j++;
  return toks[j] !== undefined && isPastForm(toks[j]!);
}

/** A base-form verb after "please", "never", "don't": a request to the assistant. */
function requestAt(toks: Tok[], i: number): number {
  let j = i;
  while (j < toks.length && REQUEST_LEAD.has(toks[j]!.norm)) j++;
  const t = toks[j];
  if (!t || t.pos !== 'VERB' || t.norm !== t.lemma) return -1;
  // "please" or a negation must come first, or the verb opens the clause ("Add no salt").
  return j > i || i === 0 ? i : -1;
}

/**
 * Where the subject starts after a bare time that opens the clause ("Weekends I'm out
 * birdwatching", "Most evenings, we ..."): the time is when, not who. Only when the speaker
 * or their own follows it, so "Mornings are hard" keeps its subject. Returns `i` when there is
 * none.
 */
function afterLeadingTime(toks: readonly Tok[], i: number): number {
  let j = i;
  while (TIME_QUANTIFIERS.has(toks[j]?.norm ?? '') && TIME_NOUNS.test(toks[j + 1]?.norm ?? '')) j++;
  const from = j;
  while (toks[j] && TIME_NOUNS.test(toks[j]!.norm)) j++;
  if (j === from) return i;
  if (toks[j]?.norm === ',') j++;
  return SUBJECT_AFTER_TIME.has(toks[j]?.norm ?? '') ? j : i;
}

/** Reads the subject at the start of a clause (skipping connectors and a leading date). */
function readSubject(toks: Tok[]): SubjectParse {
  let i = 0;
  let hypothetical = false;
  let afterDate = false;
  for (; i < toks.length; i++) {
    const t = toks[i]!;
    if (HYPOTHETICAL_OPENERS.has(t.norm)) {
      hypothetical = true;
      continue;
    }
    if ((t.norm === 'please' || t.norm === 'pls' || t.norm === 'plz') && requestAt(toks, i) >= 0)
      break;
    if (t.pos === 'PUNCT' || t.pos === 'INTJ' || t.pos === 'CCONJ') continue;
    if (LEADING_FILLERS.has(t.norm)) continue;
    // "In March, we ...", "Last week I ...", "Every morning I ..."
    if (t.ent !== null && t.ent !== 'CARDINAL') {
      afterDate = afterDate || t.ent === 'DATE' || t.ent === 'TIME';
      continue;
    }
    // "every Thursday 10 to 12 I ...": the hours of a day named just before.
    if (afterDate && (t.pos === 'NUM' || t.norm === 'to' || t.norm === '-' || t.norm === 'till'))
      continue;
    // "Saturday mornings I ...", "Sunday nights we ...": the part of the day named just before.
    if (afterDate && PARTS_OF_DAY.test(t.norm)) continue;
    if (
      (t.pos === 'ADP' || t.norm === 'every' || t.norm === 'last' || t.norm === 'next') &&
      toks[i + 1]?.ent
    )
      continue;
    const subjectAt = afterLeadingTime(toks, i);
    if (subjectAt > i) {
      i = subjectAt - 1;
      continue;
    }
    break;
  }
  i = afterLeadingAdverbial(toks, i);
  const t = toks[i];
  if (!t) return { subject: { kind: 'other' }, end: i, hypothetical };
  // "Call me Dee": an introduction without a subject.
  if (t.norm === 'call' && toks[i + 1]?.norm === 'me') {
    return { subject: { kind: 'user', plural: false }, end: i, hypothetical };
  }
  if (t.norm === 'i' || t.norm === 'we') {
    return { subject: { kind: 'user', plural: t.norm === 'we' }, end: i + 1, hypothetical };
  }
  if (t.norm === 'my' || t.norm === 'our') {
    const np = readPossessed(toks, i + 1);
    // "our twins Tobi and Kemi": a couple's twins are their children ("my twin" is a sibling).
    if (
      t.norm === 'our' &&
      np.subject.kind === 'relative' &&
      np.subject.relation === 'sibling' &&
      /^twins?$/u.test(np.subject.noun)
    ) {
      return { subject: { ...np.subject, relation: 'child' }, end: np.end, hypothetical };
    }
    return { subject: np.subject, end: np.end, hypothetical };
  }
  if (t.pos === 'PROPN' && t.norm !== 'i') {
    let j = i;
    while (toks[j]?.pos === 'PROPN') j++;
    if (isVerbish(toks[j]) || toks[j]?.norm === "'s") {
      const name = toks
        .slice(i, j)
        .map((x) => x.text)
        .join(' ');
      return { subject: { kind: 'named', name }, end: j, hypothetical };
    }
  }
  // "the dentist told me": a noun phrase with its article.
  if (t.norm === 'the' && isNominal(toks[i + 1])) {
    const np = readSubject(toks.slice(i + 1));
    if (np.subject.kind === 'thing' || np.subject.kind === 'named') {
      return { subject: np.subject, end: np.end + i + 1, hypothetical };
    }
  }
  if (t.pos === 'NOUN' || t.pos === 'ADJ') {
    let j = i;
    while (toks[j] && (toks[j]!.pos === 'NOUN' || toks[j]!.pos === 'ADJ')) j++;
    if (isVerbish(toks[j])) {
      return {
        subject: {
          kind: 'thing',
          noun: toks
            .slice(i, j)
            .map((x) => x.norm)
            .join(' '),
        },
        end: j,
        hypothetical,
      };
    }
  }
  if (dropsSubject(toks, i)) {
    return { subject: { kind: 'user', plural: false }, end: i, hypothetical, implicit: true };
  }
  const request = requestAt(toks, i);
  if (request >= 0) {
    const from = toks[request]!.norm === 'please' ? request + 1 : request;
    return { subject: { kind: 'other' }, end: from, hypothetical, imperative: true };
  }
  return { subject: { kind: 'other' }, end: i + 1, hypothetical };
}

/**
 * "my older sister Ana", "our dog, Rex,", "my favorite band", "my commute", "my head of
 * department, Mr Okafor,", "my neighbour and good friend Beatriz".
 */
function readPossessed(toks: Tok[], from: number): { subject: Subject; end: number } {
  let i = from;
  const words: string[] = [];
  while (i < toks.length) {
    const t = toks[i]!;
    // "go-to" is written as three tokens.
    if (t.norm === 'go' && toks[i + 1]?.norm === '-' && toks[i + 2]?.norm === 'to') {
      words.push('go-to');
      i += 3;
      continue;
    }
    // "brother-in-law", "step-mum", "half-sister": one noun written as several tokens.
    const compound = hyphenCompoundEnd(toks, i);
    if (compound > i) {
      words.push(
        toks
          .slice(i, compound)
          .map((x) => x.text.toLowerCase())
          .join(''),
      );
      i = compound;
      const named = appositiveName(toks, i);
      if (named) {
        const noun = words.join(' ');
        return { subject: { kind: 'possession', noun, name: named.name }, end: named.end };
      }
      continue;
    }
    // "our team models everything": a plural noun before an object is the verb, not the head.
    if (readsAsVerb(toks, i) && words.length > 0) break;
    // "head of department", "director of engineering": a role named with "of".
    if (t.norm === 'of' && words.length > 0 && toks[i + 1]?.pos === 'NOUN') {
      words.push('of');
      i++;
      continue;
    }
    // "my neighbour and good friend Beatriz": the second noun names the relation.
    if (t.norm === 'and' && words.length > 0) {
      const second = readPossessed(toks, i + 1);
      if (second.subject.kind === 'relative' && second.subject.name) return second;
      break;
    }
    if (
      t.pos === 'NOUN' ||
      t.pos === 'ADJ' ||
      t.pos === 'NUM' ||
      // "my GP", "my CTO": an acronym wink tags as a name
      (t.pos === 'PROPN' && /^\p{Lu}{2,4}$/u.test(t.text)) ||
      // "my avó": a word wink does not know is tagged a name, but one written in lower case is not
      (t.pos === 'PROPN' && /^\p{Ll}/u.test(t.text)) ||
      // "my green tea is" (wink tags "green" a verb); not "my grandma made tapioca every day"
      (t.pos === 'VERB' &&
        t.norm.endsWith('ing') === false &&
        (t.norm === t.lemma || isVerbish(toks[i + 2])) &&
        isNominal(toks[i + 1]))
    ) {
      words.push(t.norm);
      const two = words.slice(-2).join(' ');
      const rel = personNoun(two) ?? personNoun(t.norm);
      // "my sister Ana", "my sister lives" (wink reads "lives" as a noun now and then):
      // the relation noun ends the phrase unless another noun extends it ("my dog walker").
      const next = toks[i + 1];
      // "my twin brothers are", "my kid sister": a second person noun is the head.
      const extends_ =
        next?.pos === 'NOUN' &&
        ((!isVerbish(toks[i + 2]) && toks[i + 2]?.pos !== 'ADP') ||
          (personNoun(next.norm) !== null && hyphenCompoundEnd(toks, i + 1) === i + 1));
      if (rel && !extends_ && !words.includes('of')) {
        // "my colleague and close friend Ines": the noun next to the name is the relation.
        if (next?.norm === 'and') {
          const second = readPossessed(toks, i + 2);
          if (second.subject.kind === 'relative' && second.subject.name) return second;
        }
        return withName(toks, i + 1, rel, personNoun(two) ? two : t.norm);
      }
      i++;
      continue;
    }
    // "my go-to drink is": a head noun wink reads as a verb, right before the real verb.
    if (t.pos === 'VERB' && words.length > 0 && isVerbish(toks[i + 1])) {
      words.push(t.norm);
      i++;
    }
    break;
  }
  if (words.length === 0) return { subject: { kind: 'other' }, end: i };
  const named = appositiveName(toks, i);
  return {
    subject: { kind: 'possession', noun: words.join(' '), name: named?.name ?? null },
    end: named?.end ?? i,
  };
}

/** Words written before a hyphen as part of a kind of person ("step-mum", "ex-wife"). */
const KIN_PREFIXES = new Set(['step', 'half', 'ex', 'great', 'grand', 'god', 'foster']);

/**
 * Where a noun written with hyphens as several tokens ends, when one starts at toks[i]:
 * "brother - in - law", "step - mum", "half - sister"; `i` when none does. wink splits such
 * words at the hyphen, and a hyphen between words may also set off a clause ("my sister - she
 * lives in Rome"), so only these shapes are one word.
 */
function hyphenCompoundEnd(toks: readonly Tok[], i: number): number {
  const t = toks[i];
  if (!t || toks[i + 1]?.norm !== '-' || !/^\p{Ll}+$/u.test(toks[i + 2]?.text ?? '')) return i;
  if (toks[i + 2]!.norm === 'in' && toks[i + 3]?.norm === '-' && toks[i + 4]?.norm === 'law')
    return t.pos === 'NOUN' ? i + 5 : i;
  return KIN_PREFIXES.has(t.norm) && toks[i + 2]!.pos === 'NOUN' ? i + 3 : i;
}

/** Whether toks[i] is inside a noun written with hyphens ("brother - in - law"). */
function insideCompound(toks: readonly Tok[], i: number): boolean {
  for (let k = Math.max(0, i - 4); k < i; k++) if (hyphenCompoundEnd(toks, k) > i) return true;
  return false;
}

/** Pronouns that stand for a whole object ("models everything", "does something"). */
const OBJECT_PRONOUNS = /^(?:every|some|any|no)(?:thing|one|body)$/;
/** Words that open an object: an article, a possessive, a demonstrative. */
const OBJECT_OPENERS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their']);

/**
 * Whether a plural-looking noun inside a possessive phrase is the clause's verb: "our team
 * models everything", "my company makes the best tyres". A noun phrase does not go on with an object,
 * so a -s word before one is a verb wink read as a noun. Not a person noun ("my parents the
 * Smiths") and not before a date ("my house plants this year").
 */
function readsAsVerb(toks: readonly Tok[], i: number): boolean {
  const t = toks[i]!;
  const next = toks[i + 1];
  if (t.pos !== 'NOUN' || !/[^s]s$/.test(t.norm) || personNoun(t.norm) !== null) return false;
  if (!next || next.ent !== null) return false;
  return OBJECT_PRONOUNS.test(next.norm) || OBJECT_OPENERS.has(next.norm);
}

/**
 * A name right after a noun phrase, set off by commas or not ("my coach Dan", "my head of
 * department, Mr Okafor, wants"), when a verb follows it: that is the phrase's referent.
 */
function appositiveName(toks: Tok[], i: number): { name: string; end: number } | null {
  let j = i;
  if (toks[j]?.norm === ',') j++;
  const start = j;
  while (toks[j]?.pos === 'PROPN' && toks[j]!.ent !== 'DATE') j++;
  if (j === start) return null;
  const name = toks
    .slice(start, j)
    .map((t) => t.text)
    .join(' ');
  if (toks[j]?.norm === ',') j++;
  // wink tags a verb after a name as a plural noun now and then ("Ms Varga, signs the rota").
  const verbAfter =
    isVerbish(toks[j]) ||
    toks[j]?.norm === "'s" ||
    (toks[j]?.pos === 'NOUN' && /s$/.test(toks[j]!.norm));
  return verbAfter ? { name, end: j } : null;
}

function withName(
  toks: Tok[],
  i: number,
  relation: PersonRelation,
  noun: string,
): { subject: Subject; end: number } {
  let j = i;
  if (toks[j]?.norm === ',' && toks[j + 1]?.pos === 'PROPN') j++;
  const start = j;
  while (toks[j]?.pos === 'PROPN') j++;
  const name =
    j > start
      ? toks
          .slice(start, j)
          .map((t) => t.text)
          .join(' ')
      : null;
  if (name && toks[j]?.norm === ',') j++;
  return { subject: { kind: 'relative', relation, noun, name }, end: name ? j : i };
}

/** The verb group of a clause. */
export interface Predicate {
  /** Index (in toks) of the main verb, or -1 when the clause has none. */
  verbAt: number;
  /** Lemma of the main verb ("be" for a copula, "have" for possession). */
  verb: string;
  negated: boolean;
  /** "no longer", "not ... anymore", "used to": the clause says something stopped. */
  ended: boolean;
  usedTo: boolean;
  /** "will", "going to", "planning to", "want to", or a progressive with a future date. */
  future: boolean;
  /** "would", "might", "maybe", "if ...": not a statement of fact. */
  hypothetical: boolean;
  /** "can" / "can't". */
  ability: boolean;
  past: boolean;
  progressive: boolean;
  /** "I have lived", "we've moved": a present perfect (what has happened, up to now). */
  perfect: boolean;
}

/** The verb group after the subject: auxiliaries, negation, modality, the main verb. */
function readPredicate(toks: Tok[], from: number): Predicate {
  const p: Predicate = {
    verbAt: -1,
    verb: '',
    negated: false,
    ended: false,
    usedTo: false,
    future: false,
    hypothetical: false,
    ability: false,
    past: false,
    progressive: false,
    perfect: false,
  };
  let lastBe = -1;
  let lastHave = -1;
  for (let i = from; i < toks.length; i++) {
    const t = toks[i]!;
    const n = t.norm;
    if (n === 'not' || n === "n't" || n === 'never') {
      p.negated = true;
      continue;
    }
    if (n === 'no' && toks[i + 1]?.norm === 'longer') {
      p.ended = true;
      i++;
      continue;
    }
    if (n === 'used' && toks[i + 1]?.norm === 'to') {
      p.usedTo = true;
      p.ended = true;
      i++;
      continue;
    }
    if ((n === 'going' || n === 'about') && toks[i + 1]?.norm === 'to' && isVerbish(toks[i + 2])) {
      p.future = true;
      i++;
      continue;
    }
    if (n === 'gon' || n === 'gonna' || n === 'na') {
      p.future = true;
      continue;
    }
    if (INTENT_VERBS.has(t.lemma) && toks[i + 1]?.norm === 'to' && isVerbish(toks[i + 2])) {
      p.future = true;
      i++;
      continue;
    }
    if (HYPOTHETICAL_MODALS.has(n)) {
      p.hypothetical = true;
      continue;
    }
    if (FUTURE_MODALS.has(n)) {
      p.future = true;
      continue;
    }
    if (n === 'can' || n === 'ca' || n === 'cannot') {
      p.ability = true;
      if (n === 'cannot') p.negated = true;
      continue;
    }
    if (n === 'must') continue;
    // "do" is an auxiliary before a verb or a negation ("I don't eat"), else the verb itself.
    if (
      (n === 'do' || n === 'does') &&
      (toks[i + 1]?.norm === "n't" ||
        toks[i + 1]?.norm === 'not' ||
        isVerbish(toks[i + 1]) ||
        toks[i + 1]?.pos === 'ADV')
    )
      continue;
    if (n === 'do' || n === 'does') {
      p.verbAt = i;
      p.verb = 'do';
      return p;
    }
    if (n === 'did') {
      p.past = true;
      continue;
    }
    if (BE.has(n)) {
      if (n === 'was' || n === 'were') p.past = true;
      lastBe = i;
      continue;
    }
    if (n === 'have' || n === 'has' || n === 'had' || n === "'ve") {
      if (n === 'had') p.past = true;
      lastHave = i;
      continue;
    }
    if (t.pos === 'ADV' && (FREQUENCY_ADVERBS.has(n) || n.endsWith('ly'))) continue;
    // "is iced matcha", "is a used car": a participle before a noun describes it.
    if (t.pos === 'VERB' && lastBe >= 0 && n.endsWith('ed') && toks[i + 1]?.pos === 'NOUN') break;
    // "I boulder three times a week": right after "I"/"we" a word wink reads as a noun is the verb.
    const afterPronoun = i === from && (toks[i - 1]?.norm === 'i' || toks[i - 1]?.norm === 'we');
    if (
      t.pos === 'VERB' ||
      (i === from &&
        t.pos === 'NOUN' &&
        (/s$/.test(n) || (afterPronoun && !isVerbish(toks[i + 1]))))
    ) {
      p.verbAt = i;
      p.verb = verbLemma(t);
      if (lastBe >= 0 && n.endsWith('ing')) p.progressive = true;
      // "I have lived", "I've been learning": a perfect is not a finished past.
      // "I am based in": a passive takes its tense from "am"/"was", not from the participle.
      if (isPastForm(t) && lastBe < 0 && (lastHave < 0 || toks[lastHave]!.norm === 'had'))
        p.past = true;
      if (lastHave >= 0 && toks[lastHave]!.norm !== 'had') p.perfect = true;
      return p;
    }
    break;
  }
  // No full verb: "I am a nurse" (copula) or "I have two kids" (possession).
  if (lastHave >= 0 && lastHave > lastBe) {
    p.verbAt = lastHave;
    p.verb = 'have';
  } else if (lastBe >= 0) {
    p.verbAt = lastBe;
    p.verb = 'be';
  }
  return p;
}

/** The verb's lemma; wink tags "lives" after a subject as the noun "life" now and then. */
export function verbLemma(t: Tok): string {
  if (t.pos === 'VERB' || t.pos === 'AUX') return t.lemma;
  if (t.norm.endsWith('ies')) return t.norm.slice(0, -3) + 'y';
  if (/(?:ss|sh|ch|x|o)es$/.test(t.norm)) return t.norm.slice(0, -2);
  if (t.norm.endsWith('s')) return t.norm.slice(0, -1);
  return t.norm;
}

function isPastForm(t: Tok): boolean {
  if (t.pos !== 'VERB' || t.norm === t.lemma || t.norm.endsWith('ing')) return false;
  return !(t.norm === t.lemma + 's' || t.norm === t.lemma + 'es' || t.norm.endsWith('ies'));
}

/** Wh-words that open a question by themselves ("whats" as chat writes it). */
const OPEN_WH = new Set(['what', 'whats', 'where', 'wheres', 'why', 'how', 'hows', 'which', 'who']);
/** Auxiliaries that open a question when their subject follows ("can you", "is it"). */
const QUESTION_AUX = new Set([
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'shall',
  'is',
  'are',
  'am',
  'was',
  'were',
  'have',
  'has',
]);
const QUESTION_SUBJECTS = new Set([
  'you',
  'i',
  'we',
  'it',
  'they',
  'there',
  'anyone',
  'this',
  'that',
]);
/** Words that change the subject of a message: what follows is a new utterance. */
const DISCOURSE_MARKERS = new Set(['anyway', 'anyways', 'anyhow', 'btw', 'unrelated']);
/** What may stand before a question that starts mid-sentence ("..., can you", "... — can you"). */
const SEGMENT_CONNECTORS = new Set([',', 'so', 'but', 'and', 'or', '—', '–', ';', ':']);

/** Whether toks[i] opens a question by its own form: a wh-word, or an auxiliary before its subject. */
function opensQuestion(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (!t) return false;
  if (OPEN_WH.has(t.norm)) return true;
  return QUESTION_AUX.has(t.norm) && QUESTION_SUBJECTS.has(toks[i + 1]?.norm ?? '');
}

const isBreakSymbol = (t: Tok) => t.ent === 'EMOJI' || t.ent === 'EMOTICON';

/**
 * A sentence's segments: what a chat message strings together in one sentence is often
 * several utterances ("we've relocated to Porto 🎉 anyway, whats a good way to label
 * cables?"). A segment ends at an emoji or emoticon, before a discourse marker ("anyway",
 * "btw", "ok now") and before a question that starts after a comma or "so"/"but"; each
 * segment is a question or a statement on its own.
 */
function segmentRanges(toks: readonly Tok[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  const cut = (end: number, next: number) => {
    if (end > start) out.push({ start, end });
    start = next;
  };
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    const prev = toks[i - 1]!;
    if (isBreakSymbol(t)) cut(i, i + 1);
    else if (DISCOURSE_MARKERS.has(t.norm) && i > start) cut(i, i);
    else if ((t.norm === 'ok' || t.norm === 'okay') && prev.pos === 'PUNCT') cut(i, i);
    else if (SEGMENT_CONNECTORS.has(t.norm) && opensQuestion(toks, i + 1)) cut(i, i);
    // "Bought a keyboard, any tips?", "..., got any ideas?", "..., thoughts?": a question in
    // chat shorthand after a comma.
    else if (t.norm === ',' && trailingAsk(toks, i + 1)) cut(i, i);
  }
  if (start < toks.length) out.push({ start, end: toks.length });
  return out;
}

/** The most words a question in chat shorthand after a comma has ("got any game ideas for her"). */
const TRAILING_ASK_MAX_WORDS = 6;
/**
 * Words that ask to confirm what was just said ("..., right?", "..., no?"): the sentence before
 * them is what is asked, not a statement.
 */
const TAG_WORDS = new Set([
  'right',
  'correct',
  'yes',
  'no',
  'yeah',
  'yep',
  'ok',
  'okay',
  'true',
  'eh',
  'huh',
  'innit',
  'surely',
]);

/**
 * Whether toks[i..] is a short question in chat shorthand that ends the sentence after a comma:
 * "any tips?", "got any game ideas?", "any chance you could help?", "thoughts?", "ideas?",
 * "anyone been?". It has no subject of its own and is not a tag asking to confirm the statement
 * ("right?", "isn't it?"), nor a phrase that goes on with it ("like, peanuts?", "maybe near
 * the station?", "Paris?", "and you?").
 */
function trailingAsk(toks: readonly Tok[], i: number): boolean {
  if (toks.at(-1)?.norm !== '?') return false;
  const rest = toks.slice(i, -1);
  const words = rest.filter((t) => t.pos !== 'PUNCT');
  const first = rest[0];
  if (!first || rest.some((t) => t.norm === ',')) return false;
  // "any ideas for a dinosaur party at the weekend?": "any" asks however long it goes on.
  if (words.length > TRAILING_ASK_MAX_WORDS && first.norm !== 'any') return false;
  // "allergic to, like, peanuts?": the statement before the comma is not finished.
  const before = toks[i - 2];
  if (before && (before.pos === 'ADP' || before.pos === 'DET' || before.norm === 'like'))
    return false;
  if (TAG_WORDS.has(first.norm) || SUBJECT_PRONOUNS.has(first.norm)) return false;
  if (POSSESSIVES.has(first.norm) || startsClause(toks, i)) return false;
  switch (first.pos) {
    case 'DET':
    case 'NOUN':
    case 'PRON':
      return true;
    case 'VERB':
      // "got any", "know a good vet": the "you" left out; an -ing form goes on with the statement.
      return !first.norm.endsWith('ing');
    case 'ADJ':
      return rest[1]?.pos === 'NOUN';
    default:
      return false;
  }
}

/** Whether a segment asks: it ends with "?" or opens with a question word or inverted auxiliary. */
function isQuestion(segment: readonly Tok[]): boolean {
  const toks = segment.filter((t) => t.pos !== 'PUNCT' || t.norm === '?');
  if (toks.at(-1)?.norm === '?') return true;
  const first = toks.findIndex(
    (t) =>
      t.pos !== 'INTJ' &&
      !LEADING_FILLERS.has(t.norm) &&
      !SEGMENT_CONNECTORS.has(t.norm) &&
      !DISCOURSE_MARKERS.has(t.norm) &&
      t.norm !== 'totally',
  );
  return first >= 0 && opensQuestion(toks, first);
}

/**
 * The noun of whoever reports, when it names a professional ("Doc said", "my physio says",
 * "the dentist told me"): what they say about the user is a fact about the user.
 */
function professionalReporter(c: Clause): string | null {
  for (let k = c.verbAt - 1; k >= 0; k--) {
    const t = c.toks[k]!;
    if (t.pos !== 'NOUN' && t.pos !== 'PROPN') continue;
    // "GP" stays as written; "Doc" at the start of a message does not.
    const written = /^\p{Lu}{2,}$/u.test(t.text) ? t.text : t.norm;
    return isProfessional(t.norm) ? written : null;
  }
  return null;
}

/** The clauses of a sentence, with subject and modality, in order. */
export function clausesOf(sentence: AnalysedSentence): Clause[] {
  const out: Clause[] = [];
  for (const seg of segmentRanges(sentence.toks)) {
    out.push(...clausesOfSegment(sentence, sentence.toks.slice(seg.start, seg.end)));
  }
  return out;
}

function clausesOfSegment(sentence: AnalysedSentence, segment: Tok[]): Clause[] {
  const question = isQuestion(segment);
  const out: Clause[] = [];
  let reported = false;
  let reporter: string | null = null;
  let hypotheticalSentence = false;
  let hedged = false;
  let previous: Clause | null = null;
  for (const r of clauseRanges(segment)) {
    const toks = segment.slice(r.start, r.end);
    let subject: SubjectParse;
    if (r.inherits && previous) {
      subject = {
        subject: previous.subject,
        end: 1,
        hypothetical: false,
        implicit: previous.implicitSubject,
      };
    } else {
      subject = readSubject(toks);
    }
    // "..., so I'm cutting salt", "but I ...": the writer speaks again.
    if (toks[0]?.norm === 'so' || toks[0]?.norm === 'but') {
      reported = false;
      reporter = null;
    }
    const p = readPredicate(toks, subject.end);
    if (subject.hypothetical && out.length === 0) hypotheticalSentence = true;
    const tail = toks.slice(Math.max(0, p.verbAt));
    const anymore = tail.some(
      (t, k) => t.norm === 'anymore' || (t.norm === 'any' && tail[k + 1]?.norm === 'more'),
    );
    const verbTok = p.verbAt >= 0 ? toks[p.verbAt] : undefined;
    const aboutUser = subject.subject.kind === 'user' || subject.subject.kind === 'possession';
    const attestedBy = reported && reporter !== null && aboutUser ? reporter : null;
    const clause: Clause = {
      sentence,
      toks,
      subject: subject.subject,
      subjectEnd: subject.end,
      verbAt: p.verbAt,
      verb: p.verb,
      negated: p.negated && !anymore,
      ended: p.ended || (anymore && p.negated),
      usedTo: p.usedTo,
      future: p.future,
      hypothetical: subject.hypothetical || p.hypothetical || hypotheticalSentence,
      ability: p.ability,
      past: p.past && !p.usedTo,
      perfect: p.perfect,
      // "Settling into Austin": "I'm" left out before an -ing form.
      progressive: p.progressive || (subject.implicit === true && !!verbTok?.norm.endsWith('ing')),
      question,
      reported: reported && attestedBy === null,
      attestedBy,
      implicitSubject: subject.implicit === true,
      imperative: subject.imperative === true,
    };
    out.push(clause);
    previous = clause;
    // "Like I said, ...", "as I mentioned": the writer restating, not reporting.
    const restating =
      subject.subject.kind === 'user' && (toks[0]?.norm === 'like' || toks[0]?.norm === 'as');
    if (REPORTING_VERBS.has(p.verb) && !restating) {
      reported = true;
      reporter = professionalReporter(clause);
      hedged = subject.subject.kind === 'user' && HEDGES.has(p.verb) && !p.negated;
    } else if (hedged && subject.subject.kind === 'user') {
      // "I think I'm sticking with keto": the writer hedging their own statement, not reporting.
      clause.reported = false;
      reported = false;
      hedged = false;
    }
  }
  return out;
}

/** Tokens after the main verb. */
export function objectTokens(c: Clause): Tok[] {
  return c.verbAt < 0 ? [] : c.toks.slice(c.verbAt + 1);
}

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'we', 'us', 'our']);

/** Whether the writer speaks of themselves in a sentence ("I", "my", or "I" left out). */
export function writerSpeaks(sentence: AnalysedSentence): boolean {
  if (sentence.toks.some((t) => FIRST_PERSON.has(t.norm))) return true;
  return clausesOf(sentence).some((c) => c.implicitSubject);
}
