// Job title and employer, and leaving a job.
import { objectTokens, writerSpeaks, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { personByMeaning, placeByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import {
  article,
  indexOfWord,
  nounPhrase,
  placeName,
  properName,
  type Phrase,
} from '../phrases.ts';
import { isJob, isOrganisationNoun, isOrganisationWork, isWorkNoun } from '../vocabulary.ts';

/** The employer after "at"/"for" in `rest` from `from` (a name: "Shopify", "the BBC"). */
function employerAt(rest: ReturnType<typeof objectTokens>, from: number): string | null {
  for (let i = from; i < rest.length; i++) {
    if (rest[i]!.norm === 'at' || rest[i]!.norm === 'for' || rest[i]!.norm === 'with') {
      const j = rest[i + 1]?.norm === 'the' ? i + 2 : i + 1;
      const name = properName(rest, j);
      if (!name) return null;
      // "St Mary's hospital", "King's College": the name goes on past its "'s".
      const place = rest[name.end + 1];
      if (rest[name.end]?.norm === "'s" && place && isOrganisationNoun(place.norm)) {
        return `${name.text}'s ${place.text}`;
      }
      return name.text;
    }
    if (rest[i]!.pos === 'PUNCT' || rest[i]!.pos === 'VERB') return null;
  }
  return null;
}

/**
 * "I work as a nurse", "I'm a data engineer at Shopify", "my wife is a teacher", "I've been
 * at Spotify for 3 years as a data analyst", "I'm a teacher in Glasgow" (and lives there).
 */
export function jobTitle(c: Clause, ctx?: RuleContext): TypedFact[] {
  const rest = objectTokens(c);
  let at = -1;
  const as = rest.findIndex((t, k) => t.norm === 'as' && k < 6);
  // "I work as a nurse", "I work at Acme as a data engineer", "I've been at Acme as a ..."
  const beenAt = c.verb === 'be' && rest[0]?.norm === 'at';
  if ((c.verb === 'work' || beenAt) && as >= 0) at = as + 1;
  else if (
    (c.verb === 'be' || c.verb === 'become') &&
    (rest[0]?.norm === 'a' || rest[0]?.norm === 'an')
  )
    at = 0;
  if (at < 0) return [];
  const np = nounPhrase(rest, at);
  if (!np || !isJob(np.text) || /^(?:big|huge|bit|little|fan)\b/i.test(np.text)) return [];
  const past = c.past;
  const job = np.text;
  const out = factAbout(c, 'job', job, `${past ? 'was' : 'is'} ${article(job)} ${job}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
  const employer = employerAt(rest, np.end) ?? (as > 0 ? employerAt(rest, 0) : null);
  if (employer) {
    out.push(
      ...factAbout(c, 'works_at', employer, `${past ? 'worked' : 'works'} at ${employer}`, {
        identity: !past && c.subject.kind === 'user',
        ended: past,
        salience: 0.85,
      }),
    );
  }
  const town = past ? null : townOfWork(rest, np.end, ctx);
  if (town) {
    out.push(...factAbout(c, 'lives_in', town, `lives in ${town}`, { salience: 0.7 }));
  }
  return out;
}

/**
 * "a teacher in Glasgow", "a nurse at a clinic in Leeds": the town named right after a job
 * (or after its workplace) is where the person works, and so lives. Only a name word meaning
 * puts among places: "a nurse in the NHS", "an engineer in Python" are not towns.
 */
function townOfWork(rest: readonly Tok[], from: number, ctx?: RuleContext): string | null {
  const known = ctx?.words;
  if (!known) return null;
  for (let i = from; i < Math.min(rest.length, from + 6); i++) {
    const t = rest[i]!;
    if (t.pos === 'PUNCT' || t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'CCONJ') return null;
    if (t.norm !== 'in') continue;
    const place = placeName(rest, i + 1);
    if (!place) return null;
    return place.text.split(/[\s,]+/).some((w) => placeByMeaning(known, w)) ? place.text : null;
  }
  return null;
}

/** "have been ... for two years", "since 2019": a stay of months or years, not a visit. */
function longStay(c: Clause): boolean {
  // "been at Deloitte for 3 years now": "I've" left out of the perfect.
  const perfect =
    c.toks.slice(0, c.verbAt).some((t) => t.lemma === 'have') ||
    (c.implicitSubject && c.toks[c.verbAt]?.norm === 'been');
  const lasting = c.toks.some(
    (t) => t.norm === 'since' || (t.ent === 'DURATION' && /^(?:year|month|decade)s?$/.test(t.norm)),
  );
  return perfect && lasting;
}

const JOINING = new Set(['join', 'start', 'get', 'hire', 'accept']);

/** "I work at Shopify", "I joined Stripe in May", "I got a job at the BBC". */
export function employer(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  let name: string | null = null;
  if (c.verb === 'work' && (rest[0]?.norm === 'at' || rest[0]?.norm === 'for')) {
    name = employerAt(rest, 0);
  } else if (c.verb === 'be' && rest[0]?.norm === 'at' && longStay(c)) {
    // "I've been at Acme for two years": where one spends years is where one works.
    name = properName(rest, rest[1]?.norm === 'the' ? 2 : 1)?.text ?? null;
  } else if (c.verb === 'start' && rest[0]?.norm === 'at') {
    name = properName(rest, rest[1]?.norm === 'the' ? 2 : 1)?.text ?? null;
  } else if (c.verb === 'join') {
    name = properName(rest, rest[0]?.norm === 'the' ? 1 : 0)?.text ?? calledOrganisation(rest);
  } else if (JOINING.has(c.verb)) {
    // "started a new job at X", "got hired by X", "accepted an offer from X"
    const job = indexOfWord(rest, 'job');
    const at = ['at', 'by', 'from', 'with'].map((w) => indexOfWord(rest, w)).filter((i) => i >= 0);
    if (
      (job >= 0 ||
        c.verb === 'hire' ||
        indexOfWord(rest, 'offer') >= 0 ||
        indexOfWord(rest, 'working') >= 0) &&
      at.length
    ) {
      const i = Math.min(...at);
      name = properName(rest, rest[i + 1]?.norm === 'the' ? i + 2 : i + 1)?.text ?? null;
    }
  }
  if (!name) return [];
  if (c.future) {
    return factAbout(c, 'plans', `start at ${name}`, `is starting at ${name}`, { plan: true });
  }
  const past = c.past && c.verb === 'work';
  return factAbout(c, 'works_at', name, `${past ? 'worked' : 'works'} at ${name}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
}

/** "a (small fintech) startup called Tandem": the name after an organisation "called". */
function calledOrganisation(rest: readonly Tok[]): string | null {
  const called = rest.findIndex((t) => t.norm === 'called' || t.norm === 'named');
  if (called < 1 || called > 5 || !isOrganisationNoun(rest[called - 1]!.norm)) return null;
  return properName(rest, called + 1)?.text ?? null;
}

const LEAVING = new Set(['quit', 'leave', 'resign', 'retire']);

/** "I quit my job at Deloitte", "I left Google", "I was laid off from Acme". */
export function leftJob(c: Clause, ctx?: RuleContext): TypedFact[] {
  const rest = objectTokens(c);
  const laidOff = c.verb === 'lay' && rest[0]?.norm === 'off';
  if (!LEAVING.has(c.verb) && !laidOff) return [];
  if (c.future || c.negated) return [];
  let name: string | null = null;
  const fromAt = ['at', 'from', 'with'].map((w) => indexOfWord(rest, w)).filter((i) => i >= 0);
  if (fromAt.length) {
    const i = Math.min(...fromAt);
    name = properName(rest, rest[i + 1]?.norm === 'the' ? i + 2 : i + 1)?.text ?? null;
  } else if (c.verb === 'leave' || c.verb === 'quit') {
    name = properName(rest, 0)?.text ?? null;
  }
  const mentionsJob =
    indexOfWord(rest, 'job') >= 0 || laidOff || c.verb === 'resign' || c.verb === 'retire';
  if (!name && !mentionsJob) return [];
  // "We finally left London": a place left is a home left, not a job.
  if (name && c.verb === 'leave' && !mentionsJob && !fromAt.length && ctx?.words) {
    const known = ctx.words;
    if (name.split(/\s+/).some((w) => placeByMeaning(known, w))) {
      return factAbout(c, 'lives_in', name, `left ${name}`, { ended: true, salience: 0.6 });
    }
  }
  const job = name ? `their job at ${name}` : 'their job';
  const text = laidOff
    ? `was laid off${name ? ` from ${name}` : ''}`
    : c.verb === 'retire' || c.verb === 'resign'
      ? `${c.verb}d${name ? ` from ${name}` : ''}`
      : c.verb === 'leave' && name && !fromAt.length && !mentionsJob
        ? `left ${name}`
        : `${c.verb === 'leave' ? 'left' : 'quit'} ${job}`;
  return factAbout(c, 'works_at', name ?? '*', text, { ended: true, salience: 0.8 });
}

/** Possessives of someone else: "his shift at Tesco" is not the writer's. */
const OTHERS_POSSESSIVES = new Set(['his', 'her', 'their', 'your', "'s"]);

/** A name that may be an organisation: not a place or a person by meaning ("Leeds", "Tom"). */
function organisationName(name: Phrase, ctx: RuleContext): boolean {
  const known = ctx.words;
  if (!known) return false;
  const parts = name.text.split(/\s+/);
  if (parts.some((w) => placeByMeaning(known, w))) return false;
  return !(parts.length === 1 && personByMeaning(known, parts[0]!));
}

/**
 * The work noun of the phrase before "at" ("the crunch before launch at", "my team at"): up to
 * four words back, not past a verb group or punctuation; null when it is someone else's.
 */
function workNounBefore(toks: readonly Tok[], at: number): string | null {
  let found: string | null = null;
  for (let k = at - 1; k >= Math.max(0, at - 4); k--) {
    const t = toks[k]!;
    if (t.pos === 'PUNCT' || t.pos === 'AUX' || t.pos === 'CCONJ' || t.norm === 'i') break;
    if (OTHERS_POSSESSIVES.has(t.norm)) return null;
    if (found === null && isWorkNoun(t.norm)) found = t.norm;
  }
  return found;
}

/** "Safaricom's mid-year reviews": a name whose things are an organisation's work. */
function possessiveOrganisation(toks: readonly Tok[], ctx: RuleContext): Phrase | null {
  for (let i = 0; i < toks.length; i++) {
    const starts = i === 0 || !/^\p{Lu}/u.test(toks[i - 1]!.text);
    const name = starts ? properName(toks, i) : null;
    if (!name || toks[name.end]?.norm !== "'s") continue;
    for (let k = name.end + 1; k <= name.end + 3 && toks[k]; k++) {
      const t = toks[k]!;
      if (t.pos !== 'NOUN' && t.pos !== 'ADJ') break;
      if (isOrganisationWork(t.norm) && organisationName(name, ctx)) return name;
    }
  }
  return null;
}

/** "the crunch before launch at Ubisoft", "my shift at Tesco": a work noun's "at <name>". */
function workAtOrganisation(toks: readonly Tok[], ctx: RuleContext): Phrase | null {
  for (let i = 0; i < toks.length; i++) {
    if (toks[i]!.norm !== 'at') continue;
    const name = properName(toks, toks[i + 1]?.norm === 'the' ? i + 2 : i + 1);
    // "at Dave's": someone's home, not a workplace.
    if (!name || toks[name.end]?.norm === "'s") continue;
    if (workNounBefore(toks, i) !== null && organisationName(name, ctx)) return name;
  }
  return null;
}

/**
 * An employer said in passing: an organisation's name with the writer's work around it ("the
 * crunch before launch at Ubisoft is brutal", "Safaricom's mid-year reviews are next week and
 * I have to write my self-assessment", "my team at Stripe"). The name must not be a place or
 * a person by meaning, the work must not be someone else's ("his shift at Tesco"), and the
 * writer must speak of themselves in the sentence (news about a company is not a job).
 */
export function employerInPassing(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind === 'relative' || !ctx.words) return [];
  const name = workAtOrganisation(c.toks, ctx) ?? possessiveOrganisation(c.toks, ctx);
  if (!name || !writerSpeaks(c.sentence)) return [];
  // "reviews are next week": the date is the work's, not when the job began.
  return userFact('works_at', name.text, `User works at ${name.text}`, { salience: 0.75 }).map(
    (f) => ({ ...f, timeless: true }),
  );
}
