// The extraction stage (DESIGN §6): statements in, typed facts out, with no LLM. Every
// sentence is analysed once (nlp.ts), split into clauses (clause.ts), and each clause that
// states something goes through the named rules below. Questions, hypotheticals, reported
// speech, quoted words, make-believe (framing.ts) and clauses about someone else never reach
// a rule; a negated clause reaches only the rules that read negation themselves; "no longer" /
// "used to" / "not ... anymore" clauses run the ordinary rules and their facts are marked ended.
import { clausesOf, type Clause } from './clause.ts';
import { clauseDate, formatResolvedDate } from './dates.ts';
import type { Rule, RuleContext, TypedFact } from './fact.ts';
import { framesOf, mostlyQuoted } from './framing.ts';
import { analyse, type AnalysedSentence } from './nlp.ts';
import { subjectText } from './phrases.ts';
import { truecase } from './truecase.ts';
import {
  backHome,
  comesFrom,
  homeIn,
  livesIn,
  movedTo,
  sinceMove,
  timeIn,
} from './rules/places.ts';
import { employer, employerInPassing, jobTitle, leftJob } from './rules/work.ts';
import {
  haveRelative,
  married,
  namedIsMy,
  pronounIsMy,
  relativeIs,
  relativeMentioned,
  relativeNamed,
  relativeTakenForGranted,
  reportsTo,
  roleNamed,
} from './rules/people.ts';
import { bracketedRole, nameEqualsRole, namedAsRole } from './rules/asides.ts';
import { petOwned } from './rules/pets.ts';
import {
  allergy,
  allergyNamed,
  allergyRemedy,
  conditionDay,
  diet,
  diagnosisNamed,
  dietNow,
  healthCondition,
  injury,
  medication,
  sensitivity,
} from './rules/health.ts';
import { commute, drink, schedule, vehicle, vehicleMentioned } from './rules/routine.ts';
import {
  dislikes,
  favorite,
  hobby,
  hobbyByFrequency,
  instrument,
  learning,
  likes,
  speaks,
  startedActivity,
  tasteFragment,
  tasteJudged,
} from './rules/interests.ts';
import { plans, travel } from './rules/plans.ts';
import { techUse, toolIn } from './rules/tech.ts';
import { deviceIs, leftFor, switched } from './rules/changes.ts';
import { age, birthday, name } from './rules/identity.ts';
import { avoidRequest } from './rules/requests.ts';
import { plainStatement } from './rules/statements.ts';
import type { WordVectors } from '../../vector/word-vectors.ts';

/**
 * Rules that read the people a clause names, whoever its subject ("with my best mate Olu",
 * "Siobhán (the boss) has ...", "Paçoca = the cat").
 */
const MENTION_RULES: readonly Rule[] = [
  relativeMentioned,
  // "…past Deirdre first, she's my line manager": "he"/"she" is the name before it.
  pronounIsMy,
  bracketedRole,
  nameEqualsRole,
  // "Two winters in Bristol now", "since the move to Leeds": verbless, whoever the subject.
  timeIn,
  sinceMove,
  // "the crunch before launch at Ubisoft", "Safaricom's mid-year reviews": whoever the subject.
  employerInPassing,
  // "Since the type 2 diagnosis", "migraine day again", "so pescatarian now": no verb of their own.
  diagnosisNamed,
  conditionDay,
  dietNow,
  // "severe peanut allergy here", "with my shellfish allergy": an allergy without "I have".
  allergyNamed,
  // "my old subaru needs tires", "no cilantro, it tastes like soap", "big into climbing".
  vehicleMentioned,
  tasteJudged,
  tasteFragment,
  // "fyi we moved off Trello, the whole team's on Asana now": finds the writer itself.
  leftFor,
];

/** Rules for requests to the assistant that state a lasting wish ("never put X in ..."). */
const REQUEST_RULES: readonly Rule[] = [avoidRequest];

/**
 * Rules for what a question, a supposition or a request takes as given: "what should I get my
 * brother Tom?" still says the user has a brother named Tom.
 */
const GIVEN_RULES: readonly Rule[] = [relativeTakenForGranted];

/**
 * The general rule, for a statement of the user's no specific rule read: a fact in their
 * words, typed by meaning (rules/statements.ts). Skipped while the word vectors load.
 */
const FALLBACK_RULES: readonly Rule[] = [plainStatement];

/** Rules for statements of fact. */
const STATEMENT_RULES: readonly Rule[] = [
  name,
  age,
  birthday,
  livesIn,
  movedTo,
  homeIn,
  comesFrom,
  backHome,
  jobTitle,
  employer,
  leftJob,
  relativeNamed,
  relativeIs,
  roleNamed,
  namedIsMy,
  namedAsRole,
  reportsTo,
  haveRelative,
  married,
  petOwned,
  diet,
  allergy,
  allergyRemedy,
  healthCondition,
  injury,
  medication,
  sensitivity,
  drink,
  vehicle,
  commute,
  schedule,
  likes,
  dislikes,
  favorite,
  hobby,
  hobbyByFrequency,
  startedActivity,
  instrument,
  learning,
  speaks,
  techUse,
  toolIn,
  switched,
  deviceIs,
  travel,
  plans,
];

/** Rules that read the user's future clauses ("will", "going to", "planning to"). */
const FUTURE_RULES: readonly Rule[] = [travel, plans, movedTo, employer, relativeNamed];

/** Rules that read a negated clause themselves ("I don't eat meat", "I can't do mornings"). */
const NEGATION_RULES: readonly Rule[] = [dislikes, likes, diet, schedule, relativeNamed];

export interface ExtractOptions {
  /** When the message was written (ms). */
  at: number;
  /** A labelled human speaker ("Dana: ..."): facts are about them instead of "User". */
  speaker?: string | null;
  /** Word meaning, once loaded (null/absent: the rules that need it are skipped). */
  words?: WordVectors | null;
}

/** Whether a clause states something a rule may read at all. */
function states(c: Clause): boolean {
  if (c.question || c.reported || c.hypothetical) return false;
  return c.subject.kind !== 'other';
}

function rulesFor(c: Clause): readonly Rule[] {
  // Plans are the user's own: what a friend intends to do is news, not a lasting fact.
  if (c.future) return c.subject.kind === 'user' ? FUTURE_RULES : [relativeNamed];
  if (c.negated) return NEGATION_RULES;
  return STATEMENT_RULES;
}

/** The rules that read a clause, in order; the fallback only when none of them stated anything. */
function factsByRules(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.question || c.hypothetical) return GIVEN_RULES.flatMap((rule) => rule(c, ctx));
  if (c.imperative) return [...REQUEST_RULES, ...GIVEN_RULES].flatMap((rule) => rule(c, ctx));
  const out = c.reported ? [] : MENTION_RULES.flatMap((rule) => rule(c, ctx));
  if (!states(c)) return out;
  for (const rule of rulesFor(c)) out.push(...rule(c, ctx));
  if (out.length === 0) for (const rule of FALLBACK_RULES) out.push(...rule(c, ctx));
  return out;
}

/** Facts of one clause, dated and marked ended where the clause says so. */
export function factsOfClause(c: Clause, ctx: RuleContext): TypedFact[] {
  const date = clauseDate(c, ctx.at);
  const out: TypedFact[] = [];
  for (const f of factsByRules(c, ctx)) {
    // "Back home in Accra we used to ...": the habit ended, not the fact the rule read beside it.
    const ended = f.ended || (c.ended && !f.timeless);
    const dated = date !== null && f.validFrom === null && !f.timeless;
    // "We no longer use X" → "User no longer uses X".
    const text = ended && !f.ended ? noLonger(f.text, subjectText(c.subject)) : f.text;
    out.push({
      ...f,
      ended,
      validFrom: f.validFrom ?? (dated ? date.at : null),
      text: capitalise(dated ? `${text} (${formatResolvedDate(date)})` : text),
      // An ended fact is history: never an always-on identity line.
      identity: f.identity && !ended,
    });
  }
  return out;
}

const GREETING = /^(?:hi|hello|hey|hiya|howdy|greetings)$/;

function greets(s: AnalysedSentence | undefined): boolean {
  const first = s?.toks[0];
  return first !== undefined && GREETING.test(first.norm);
}

/** Typed facts stated in a message by its writer. */
export function extractFacts(text: string, o: ExtractOptions): TypedFact[] {
  return factsOfSentences(analyse(text), o).flat();
}

/** Facts per sentence of an analysed message (the summary scores sentences by them). */
export function factsOfSentences(
  sentences: readonly AnalysedSentence[],
  o: ExtractOptions,
): TypedFact[][] {
  const ctx: RuleContext = { at: o.at, greeted: greets(sentences[0]), words: o.words ?? null };
  const seen = new Set<string>();
  const frames = framesOf(sentences);
  return sentences.map((s, i) => {
    const out: TypedFact[] = [];
    const frame = frames[i]!;
    for (const c of clausesOf(truecase(s, ctx.words ?? null))) {
      // Quoted words and make-believe are someone's lines, not the writer's facts.
      if (frame.fiction || mostlyQuoted(frame, c.sentence, c.toks)) continue;
      for (const f of factsOfClause(c, ctx)) {
        const fact = o.speaker ? aboutSpeaker(f, o.speaker) : f;
        const key = `${fact.subject}|${fact.relation}|${fact.object.toLowerCase()}|${fact.ended}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(fact);
      }
    }
    return out;
  });
}

/** A fact a labelled speaker stated about themselves: "Dana", "Dana's sister". */
function aboutSpeaker(f: TypedFact, speaker: string): TypedFact {
  return {
    ...f,
    subject: f.subject.replace(/^user\b/, speaker.toLowerCase()),
    text: f.text.replace(/^User\b/, speaker),
    // Identity overrides describe the user of this agent, not the people in a log.
    identity: false,
  };
}

function noLonger(text: string, subject: string): string {
  if (!text.startsWith(`${subject} `)) return `No longer: ${text}`;
  const rest = text.slice(subject.length + 1);
  // "User is vegetarian" → "User is no longer vegetarian" (a copula comes first).
  const copula = /^(?:is|are|was|were)\s/u.exec(rest);
  return copula
    ? `${subject} ${copula[0]}no longer ${rest.slice(copula[0].length)}`
    : `${subject} no longer ${rest}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
