// Clauses of a sentence, each with who it is about and how it is said (DESIGN §6). A rule
// only ever sees a clause that states something: the engine drops questions, hypotheticals
// and reported speech, and tells a rule whether the clause is negated, says that something
// ended ("no longer", "used to") or is planned ("will", "going to").
import type { AnalysedSentence, Tok } from './nlp.ts';
import { personNoun, type PersonRelation } from './vocabulary.ts';

export type Subject =
  /** "I" or "we": the speaker of the message. */
  | { kind: 'user'; plural: boolean }
  /** "my sister (Ana)", "our dog Rex": someone the speaker names by their relation. */
  | { kind: 'relative'; relation: PersonRelation; noun: string; name: string | null }
  /** "my commute", "my favorite band", "our stack": a thing of the speaker's. */
  | { kind: 'possession'; noun: string }
  /** "Priya", "Tom": someone named without a relation. */
  | { kind: 'named'; name: string }
  /** "coffee" (makes me jittery): a thing. */
  | { kind: 'thing'; noun: string }
  /** he, she, you, it, this ...: nobody the speaker states a fact about. */
  | { kind: 'other' };

export interface Clause {
  sentence: AnalysedSentence;
  toks: Tok[];
  subject: Subject;
  /** Index (in toks) just after the subject. */
  subjectEnd: number;
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
  question: boolean;
  /** Inside what someone else said or thought ("Tom said he moved to Rome"). */
  reported: boolean;
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
const QUESTION_OPENERS = new Set([
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
  'what',
  'where',
  'who',
  'whom',
  'why',
  'how',
  'which',
]);
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
  'wish',
  'dream',
  'imagine',
  'pretend',
  'ask',
]);
/** Verbs of intention: "I plan to / want to / hope to <verb>" is a plan. */
const INTENT_VERBS = new Set(['plan', 'want', 'intend', 'aim', 'hope', 'decide', 'need']);
const CONNECTORS = new Set([
  ',',
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
  'when',
  'now',
  'then',
  'also',
  'and',
  'or',
  'if',
  'unless',
  '-',
  '—',
  '–',
]);
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
  'both',
  'all',
]);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'he', 'she', 'they', 'you', 'it', 'this', 'that']);
const POSSESSIVES = new Set(['my', 'our', 'his', 'her', 'their', 'your']);
const BE = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "'m", "'s", "'re"]);

const isVerbish = (t: Tok | undefined) => t !== undefined && (t.pos === 'VERB' || t.pos === 'AUX');
const isNominal = (t: Tok | undefined) =>
  t !== undefined && (t.pos === 'NOUN' || t.pos === 'PROPN');

/** Whether a clause may start at toks[i] (after any connectors). */
function startsClause(toks: Tok[], i: number): boolean {
  let j = i;
  while (j < toks.length && CONNECTORS.has(toks[j]!.norm)) j++;
  const t = toks[j];
  if (!t) return false;
  if (SUBJECT_PRONOUNS.has(t.norm) && t.norm !== 'that' && t.norm !== 'this') return true;
  if (POSSESSIVES.has(t.norm)) {
    // "my sister lives", "our cat is": a possessive noun phrase followed by a verb.
    for (let k = j + 1; k < Math.min(toks.length, j + 6); k++) {
      if (isVerbish(toks[k])) return true;
      if (toks[k]!.pos === 'PUNCT' && toks[k]!.norm !== ',') return false;
    }
    return false;
  }
  if (isNominal(t)) {
    for (let k = j + 1; k < Math.min(toks.length, j + 4); k++) {
      if (isVerbish(toks[k])) return true;
      if (!isNominal(toks[k]) && toks[k]!.pos !== 'ADJ') return false;
    }
  }
  return false;
}

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

/** Splits a sentence into clause token ranges [start, end). */
function clauseRanges(toks: Tok[]): { start: number; end: number; inherits: boolean }[] {
  const out: { start: number; end: number; inherits: boolean }[] = [];
  let start = 0;
  let inherits = false;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    const hard = t.norm === ';' || t.norm === '—' || t.norm === '–' || t.norm === ':';
    const soft = t.norm === ',' || t.norm === '-' || BOUNDARY_WORDS.has(t.norm);
    // "lives in Rome and works as a nurse": a second predicate of the same subject.
    const sharedSubject = t.norm === 'and' && isVerbish(toks[i + 1]) && toks[i + 1]!.pos === 'VERB';
    if (hard || (soft && (startsClause(toks, i + 1) || sharedSubject))) {
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
}

/** Reads the subject at the start of a clause (skipping connectors and a leading date). */
function readSubject(toks: Tok[]): SubjectParse {
  let i = 0;
  let hypothetical = false;
  for (; i < toks.length; i++) {
    const t = toks[i]!;
    if (HYPOTHETICAL_OPENERS.has(t.norm)) {
      hypothetical = true;
      continue;
    }
    if (t.pos === 'PUNCT' || t.pos === 'INTJ' || t.pos === 'CCONJ') continue;
    if (LEADING_FILLERS.has(t.norm)) continue;
    // "In March, we ...", "Last week I ...", "Every morning I ..."
    if (t.ent !== null && t.ent !== 'CARDINAL') continue;
    if (
      (t.pos === 'ADP' || t.norm === 'every' || t.norm === 'last' || t.norm === 'next') &&
      toks[i + 1]?.ent
    )
      continue;
    break;
  }
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
  return { subject: { kind: 'other' }, end: i + 1, hypothetical };
}

/** "my older sister Ana", "our dog, Rex,", "my favorite band", "my commute". */
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
    if (
      t.pos === 'NOUN' ||
      t.pos === 'ADJ' ||
      t.pos === 'NUM' ||
      (t.pos === 'VERB' && t.norm.endsWith('ing') === false && isNominal(toks[i + 1]))
    ) {
      words.push(t.norm);
      const two = words.slice(-2).join(' ');
      const rel = personNoun(two) ?? personNoun(t.norm);
      // "my sister Ana", "my sister lives" (wink reads "lives" as a noun now and then):
      // the relation noun ends the phrase unless another noun extends it ("my dog walker").
      const next = toks[i + 1];
      const extends_ =
        next?.pos === 'NOUN' && !isVerbish(toks[i + 2]) && toks[i + 2]?.pos !== 'ADP';
      if (rel && !extends_) return withName(toks, i + 1, rel, personNoun(two) ? two : t.norm);
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
  return { subject: { kind: 'possession', noun: words.join(' ') }, end: i };
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

interface Predicate {
  verbAt: number;
  verb: string;
  negated: boolean;
  ended: boolean;
  usedTo: boolean;
  future: boolean;
  hypothetical: boolean;
  ability: boolean;
  past: boolean;
  progressive: boolean;
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
    if (t.pos === 'VERB' || (i === from && t.pos === 'NOUN' && /s$/.test(n))) {
      p.verbAt = i;
      p.verb = verbLemma(t);
      if (lastBe >= 0 && n.endsWith('ing')) p.progressive = true;
      // "I have lived", "I've been learning": a perfect is not a finished past.
      // "I am based in": a passive takes its tense from "am"/"was", not from the participle.
      if (isPastForm(t) && lastBe < 0 && (lastHave < 0 || toks[lastHave]!.norm === 'had'))
        p.past = true;
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

function isQuestion(s: AnalysedSentence): boolean {
  const toks = s.toks.filter((t) => t.pos !== 'PUNCT' || t.norm === '?');
  if (toks.at(-1)?.norm === '?') return true;
  const first = toks.find((t) => t.pos !== 'INTJ' && !LEADING_FILLERS.has(t.norm));
  return first !== undefined && QUESTION_OPENERS.has(first.norm) && first.norm !== 'when';
}

/** The clauses of a sentence, with subject and modality, in order. */
export function clausesOf(sentence: AnalysedSentence): Clause[] {
  const question = isQuestion(sentence);
  const out: Clause[] = [];
  let reported = false;
  let hypotheticalSentence = false;
  let previous: Clause | null = null;
  for (const r of clauseRanges(sentence.toks)) {
    const toks = sentence.toks.slice(r.start, r.end);
    let subject: SubjectParse;
    if (r.inherits && previous) {
      subject = { subject: previous.subject, end: 1, hypothetical: false };
    } else {
      subject = readSubject(toks);
    }
    const p = readPredicate(toks, subject.end);
    if (subject.hypothetical && out.length === 0) hypotheticalSentence = true;
    const tail = toks.slice(Math.max(0, p.verbAt));
    const anymore = tail.some(
      (t, k) => t.norm === 'anymore' || (t.norm === 'any' && tail[k + 1]?.norm === 'more'),
    );
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
      progressive: p.progressive,
      question,
      reported,
    };
    out.push(clause);
    previous = clause;
    if (REPORTING_VERBS.has(p.verb)) reported = true;
  }
  return out;
}

/** Tokens after the main verb. */
export function objectTokens(c: Clause): Tok[] {
  return c.verbAt < 0 ? [] : c.toks.slice(c.verbAt + 1);
}
