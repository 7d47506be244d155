// Everyday routine: usual drink, vehicles, commute, schedule constraints.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { vehicleByMeaning } from '../meaning.ts';
import {
  article,
  isActivity,
  joinTokens,
  nounPhrase,
  ownTeam,
  predicateText,
  properName,
  teamText,
  type Phrase,
} from '../phrases.ts';
import type { Tok } from '../nlp.ts';
import { isDrink, isVehicle, transportPhrase } from '../vocabulary.ts';

/** Someone who drinks a lot of something: "a matcha addict", "a big tea drinker". */
const DRINKER_NOUNS = new Set(['addict', 'drinker', 'fiend', 'junkie', 'lover', 'person']);

/**
 * "I drink green tea", "I have an oat latte every morning", "my go-to drink is matcha", "I run
 * on yerba mate", "I'm a matcha latte addict".
 */
export function drink(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  // "run on", "live on", "survive on" a drink: what keeps someone going.
  const on = rest[0]?.norm === 'on' && ['run', 'live', 'survive'].includes(c.verb) ? 1 : -1;
  if (c.verb === 'drink' || c.verb === 'have' || on > 0) {
    const np = nounPhrase(rest, Math.max(0, on));
    if (!np || np.none || !isDrink(np.text)) return [];
    return factAbout(c, 'drink', np.text, `drinks ${np.text}`, { salience: 0.65 });
  }
  if (c.verb === 'be' && (rest[0]?.norm === 'a' || rest[0]?.norm === 'an')) {
    const np = nounPhrase(rest, 0);
    const words = np?.text.split(' ') ?? [];
    if (!np || !DRINKER_NOUNS.has(np.head) || words.length < 2) return [];
    const what = words.slice(0, -1).filter((w) => !/^(?:big|huge|total|real|massive)$/i.test(w));
    const thing = what.join(' ');
    if (!isDrink(thing)) return [];
    return factAbout(c, 'drink', thing, `is ${article(np.text)} ${np.text}`, { salience: 0.65 });
  }
  if (c.subject.kind === 'possession' && /\bdrink$/.test(c.subject.noun) && c.verb === 'be') {
    const np = nounPhrase(rest, 0);
    if (!np) return [];
    return factAbout(
      { ...c, subject: { kind: 'user', plural: false } },
      'drink',
      np.text,
      `drinks ${np.text}`,
      {
        salience: 0.65,
      },
    );
  }
  return [];
}

/** Verbs of having a vehicle: "I drive a Honda Civic", "we bought a van". */
const VEHICLE_VERBS = new Set(['drive', 'ride', 'own', 'have', 'buy', 'get', 'lease']);

/** A vehicle phrase as a fact writes it: without the user's "my" ("their e-bike" → "e-bike"). */
function vehicleText(np: Phrase): string {
  return np.text.replace(/^their /, '');
}

/**
 * The vehicle a phrase names, as a fact writes it: a vehicle noun ("e-bike"), or from a make or
 * model by meaning on ("old subaru outback" → "Subaru Outback"); null when it names none.
 */
function vehicleName(np: Phrase, ctx: RuleContext): string | null {
  const text = vehicleText(np);
  if (isVehicle(text)) return text;
  const words = text.split(' ');
  const make = ctx.words ? words.findIndex((w) => vehicleByMeaning(ctx.words!, w)) : -1;
  if (make < 0 || !modelAfter(words.slice(make))) return null;
  return capitalisedName(words.slice(make).join(' '));
}

/**
 * Whether the words after a make are its model: capitalised or numbers as the make is ("Subaru
 * Outback", "Tesla Model 3"), or anything when the writer wrote the make in lower case ("subaru
 * outback"). "Yamaha keyboard" names a keyboard, not a vehicle.
 */
function modelAfter(words: readonly string[]): boolean {
  if (!/^\p{Lu}/u.test(words[0] ?? '')) return true;
  return words.slice(1).every((w) => /^[\p{Lu}\d]/u.test(w));
}

/** "I drive a Honda Civic", "I bought a new bike", "my car is a Tesla", "my car's a 2012 Civic". */
export function vehicle(c: Clause, ctx: RuleContext): TypedFact[] {
  const rest = objectTokens(c);
  if (VEHICLE_VERBS.has(c.verb)) {
    const np = nounPhrase(rest, 0);
    if (!np || np.none) return [];
    const explicit = (c.verb === 'drive' || c.verb === 'ride') && np.proper;
    const what = explicit ? vehicleText(np) : vehicleName(np, ctx);
    if (!what) return [];
    const verb = c.verb === 'drive' ? 'drives' : c.verb === 'ride' ? 'rides' : 'has';
    return factAbout(c, 'vehicle', what, `${verb} ${article(what)} ${what}`, {
      salience: 0.65,
    });
  }
  if (c.subject.kind === 'possession' && isVehicle(c.subject.noun) && c.verb === 'be') {
    // "a 2012 Civic": the model year before the name.
    const article = rest[0]?.norm === 'a' || rest[0]?.norm === 'an' ? 1 : 0;
    const year = rest[article]?.pos === 'NUM' && /^\d{4}$/.test(rest[article]!.text);
    const np = properName(rest, year ? article + 1 : 0) ?? nounPhrase(rest, 0);
    if (!np || !np.proper) return [];
    const what = year ? `${rest[article]!.text} ${np.text}` : np.text;
    return factAbout(
      { ...c, subject: { kind: 'user', plural: false } },
      'vehicle',
      np.text,
      `drives a ${what}`,
      {
        salience: 0.65,
      },
      // "a 2012 Civic": the year is the model's, not when the statement holds from.
    ).map((f) => (year ? { ...f, timeless: true } : f));
  }
  return [];
}

/** "Subaru Outback" for "subaru outback": a make and model a lower-case writer left uncapitalised. */
function capitalisedName(text: string): string {
  return text.replace(
    /(^|\s)(\p{Ll})/gu,
    (_m, space: string, letter: string) => `${space}${letter.toUpperCase()}`,
  );
}

/** Verbs that part with a vehicle: "sold my Subaru" does not say the user has one. */
const PARTING = new Set(['sell', 'scrap', 'trade', 'give', 'lose', 'total', 'crash', 'return']);

/**
 * "my old subaru outback needs new tires", "my Corolla's due a service": a vehicle of the
 * user's named in passing, by its make or model (meaning.ts `vehicleByMeaning`) right after
 * "my"/"our" and any adjectives ("old", "trusty"). Someone else's ("my dad's Corolla") is not.
 */
export function vehicleMentioned(c: Clause, ctx: RuleContext): TypedFact[] {
  const words = ctx.words;
  if (!words || c.negated || PARTING.has(c.verb)) return [];
  // The vehicle rule reads "I drive my Subaru" itself.
  if (c.subject.kind === 'user' && VEHICLE_VERBS.has(c.verb)) return [];
  const toks = c.toks;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i]!.norm !== 'my' && toks[i]!.norm !== 'our') continue;
    // "my old subaru", "our trusty Yamaha": describing words before the make (wink tags some
    // of them as nouns).
    let j = i + 1;
    while (
      j - i <= 3 &&
      (toks[j]?.pos === 'ADJ' || toks[j]?.pos === 'NOUN') &&
      !vehicleByMeaning(words, toks[j]!.norm)
    )
      j++;
    const make = toks[j];
    // A make or model ("Subaru", "Corolla"); "my car" or "my bike" alone names none.
    const named =
      make !== undefined &&
      (make.pos === 'NOUN' || make.pos === 'PROPN') &&
      !isVehicle(make.norm) &&
      vehicleByMeaning(words, make.norm);
    if (!named) continue;
    let end = j + 1;
    while (
      toks[end] &&
      (toks[end]!.pos === 'PROPN' || toks[end]!.pos === 'NUM' || toks[end]!.pos === 'NOUN') &&
      toks[end]!.ent !== 'DATE' &&
      end - j < 3
    )
      end++;
    const name = toks.slice(j, end).map((t) => t.text);
    if (!modelAfter(name)) continue;
    const what = capitalisedName(name.join(' '));
    return userFact('vehicle', what, `User has ${article(what)} ${what}`, { salience: 0.6 });
  }
  return [];
}

const WORKPLACES = new Set([
  'work',
  'office',
  'school',
  'campus',
  'uni',
  'university',
  'class',
  'job',
]);

function toWorkplace(rest: readonly Tok[], from: number): boolean {
  for (let i = from; i < Math.min(rest.length, from + 4); i++) {
    if (WORKPLACES.has(rest[i]!.norm)) return true;
  }
  return false;
}

/**
 * "I ride my e-bike in every day", "I cycle in most days", "I drive in": a way of travelling
 * with "in" and no place after it is the way into work. Said in the present, as a habit.
 */
function cominginBy(c: Clause, rest: readonly Tok[]): { by: string; text: string } | null {
  if (c.past || c.subject.kind !== 'user') return null;
  const direct = transportPhrase(c.verb);
  const np = c.verb === 'ride' || c.verb === 'drive' ? nounPhrase(rest, 0) : null;
  const at = np ? np.end : 0;
  if (rest[at]?.norm !== 'in') return null;
  // "in London", "in the rain", "in my car": a place or a manner, not the way in.
  const after = rest[at + 1];
  if (after && (after.pos === 'DET' || after.pos === 'PROPN' || after.pos === 'PRON')) {
    if (!RECURRING.has(after.norm) && after.norm !== 'most') return null;
  }
  if (after?.pos === 'NOUN' && after.ent === null && !RECURRING.has(after.norm)) return null;
  if (np && isVehicle(np.text)) {
    const verb = c.verb === 'drive' ? 'drives' : 'rides';
    return { by: vehicleText(np), text: `${verb} ${np.text} to work` };
  }
  const how = direct ?? (c.verb === 'ride' ? 'rides' : null);
  return how && !np ? { by: c.verb, text: `${how} to work` } : null;
}

/** "I bike to work", "I take the train to the office", "I commute by bus", "I cycle in". */
export function commute(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  const direct = transportPhrase(c.verb);
  if (direct && rest[0]?.norm === 'to' && toWorkplace(rest, 1)) {
    return factAbout(c, 'commute', c.verb, `${direct} to work`, { salience: 0.6 });
  }
  if (c.verb === 'take' || c.verb === 'ride') {
    const np = nounPhrase(rest, 0);
    const how = np ? transportPhrase(np.head) : null;
    if (how && toWorkplace(rest, np!.end)) {
      return factAbout(c, 'commute', np!.head, `${how} to work`, { salience: 0.6 });
    }
  }
  const comesIn = cominginBy(c, rest);
  if (comesIn) return factAbout(c, 'commute', comesIn.by, comesIn.text, { salience: 0.6 });
  if (c.verb === 'commute') {
    const by = rest.findIndex((t) => t.norm === 'by' || t.norm === 'on');
    const np = by >= 0 ? nounPhrase(rest, by + 1) : null;
    if (np) return factAbout(c, 'commute', np.head, `commutes by ${np.text}`, { salience: 0.6 });
  }
  return [];
}

const RECURRING = new Set([
  'every',
  'each',
  'daily',
  'weekly',
  'weekdays',
  'weekends',
  'weeknights',
  'nightly',
]);
const WEEKDAY_PLURAL = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days$/;

const PARTS_OF_DAY = new Set(['mornings', 'afternoons', 'evenings', 'nights']);
/** What counts a frequency: "three times a week", "twice a month", "two nights a week". */
const PER = new Set(['a', 'per']);
const PERIODS = new Set(['day', 'week', 'month', 'fortnight', 'year']);
const COUNTED = new Set(['times', 'once', 'twice', 'days', 'nights', 'evenings', 'mornings']);

/**
 * Whether tokens state something recurring ("on Mondays", "every morning", "before 10am",
 * "Saturday mornings", "most evenings", "three times a week").
 */
export function recurring(toks: readonly Tok[]): boolean {
  return toks.some((t, i) => {
    const prev = toks[i - 1];
    return (
      RECURRING.has(t.norm) ||
      WEEKDAY_PLURAL.test(t.norm) ||
      (PARTS_OF_DAY.has(t.norm) &&
        (prev?.norm === 'the' ||
          prev?.norm === 'most' ||
          prev?.norm === 'some' ||
          WEEKDAY.test(prev?.norm ?? ''))) ||
      (PER.has(t.norm) && PERIODS.has(toks[i + 1]?.norm ?? '') && COUNTED.has(prev?.norm ?? '')) ||
      ((t.norm === 'before' || t.norm === 'after' || t.norm === 'until') &&
        toks[i + 1]?.ent === 'TIME')
    );
  });
}

const WEEKDAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$/;
/** Parts of the day and of the week, one or every: "morning", "evenings", "weekend", "weeknights". */
const TIME_OF_DAY_OR_WEEK = /^(?:morning|afternoon|evening|night|week(?:end|day|night))s?$/;
/** Words before a time that say how many of them: "Most evenings", "Some weekends". */
const TIME_QUANTIFIERS = new Set(['most', 'some', 'many', 'all']);

/** A word that says when: "every", "Thursday(s)", "weekends", "mornings", a time or a date. */
function isTimeWord(t: Tok): boolean {
  return (
    RECURRING.has(t.norm) ||
    WEEKDAY.test(t.norm) ||
    TIME_OF_DAY_OR_WEEK.test(t.norm) ||
    t.ent === 'TIME' ||
    t.ent === 'DATE'
  );
}

/**
 * The time said before the subject ("every thursday 10 to 12 I'm in the review", "on Mondays I
 * teach", "Most evenings I ..."), as its tokens; none when the clause opens with its subject.
 */
function frontedTimeToks(c: Clause): Tok[] {
  const start = c.toks.findIndex((t, i) => i < c.subjectEnd && (t.norm === 'i' || t.norm === 'we'));
  if (start <= 0) return [];
  const lead = c.toks.slice(0, start);
  let from = lead.findIndex(isTimeWord);
  if (from < 0) return [];
  // "Most evenings", "some weekends": how many of the times.
  if (from > 0 && TIME_QUANTIFIERS.has(lead[from - 1]!.norm)) from--;
  // "on Mondays", "at 9": keep the preposition that introduces the time.
  if (from > 0 && lead[from - 1]!.pos === 'ADP') from--;
  const time = lead.slice(from);
  while (time.length > 0 && time.at(-1)!.pos === 'PUNCT') time.pop();
  return time;
}

/**
 * The time said before the subject as a fact writes it, or "": the predicate starts after the
 * subject, so without this the fact would lose when.
 */
function frontedTime(c: Clause): string {
  const time = frontedTimeToks(c);
  if (time.length === 0) return '';
  // "Mornings I swim": every morning, as a fact says it.
  if (time.length === 1 && PARTS_OF_DAY.has(time[0]!.norm)) return `in the ${time[0]!.norm}`;
  const text = joinTokens(time);
  // Mid-sentence in the fact: "(on Mondays)", "(every Thursday)", "(most evenings)"; a day or a
  // date keeps its capital ("(Thursday)", "(Last week)").
  const first = time[0]!;
  const named = !RECURRING.has(first.norm) && (WEEKDAY.test(first.norm) || first.ent !== null);
  return named && first.pos !== 'ADP' ? text : text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Whether a clause says something recurring: in its words ("on Mondays", "three times a
 * week") or in a time before its subject ("Mornings I swim", "Weekend mornings, I run 5k",
 * "Weekends I'm out"), where a bare part of the day in the plural means every one of them.
 */
export function recurringClause(c: Clause): boolean {
  if (recurring(c.toks)) return true;
  return frontedTimeToks(c).some(
    (t) => RECURRING.has(t.norm) || WEEKDAY_PLURAL.test(t.norm) || PARTS_OF_DAY.has(t.norm),
  );
}

/** Words before a time of day: "at 6", "around 11", "by half five". */
const CLOCK_LEADS = new Set(['at', 'around', 'by', 'before', 'after', 'until', 'till', 'from']);
/** Words that say a habit: "I'm usually up at 5:30". */
const HABITUALLY = new Set(['usually', 'normally', 'always', 'typically', 'generally', 'often']);
/** Words that make a time of day a one-off: "at 6 tomorrow", "tonight at 11". */
const ONE_OFF = new Set(['today', 'tonight', 'tomorrow', 'yesterday', 'this', 'next', 'last']);

/** A time of day on the clock: "8am", "5:30", "at 6", "around 11", "at half five". */
function clockTime(toks: readonly Tok[]): boolean {
  return toks.some((t, i) => {
    if (t.ent === 'TIME' && /\d/u.test(t.text)) return true;
    if (t.pos !== 'NUM') return false;
    const lead = toks[i - 1]?.norm === 'half' ? toks[i - 2] : toks[i - 1];
    return lead !== undefined && CLOCK_LEADS.has(lead.norm);
  });
}

/**
 * "I usually get up at 6", "I go to bed around 11", "I'm normally up at 5:30": what the user
 * does at a time of day, said in the present as their habit, is their routine.
 */
function dailyRoutine(c: Clause): boolean {
  if (c.past || c.future || c.hypothetical || c.progressive || c.perfect) return false;
  if (c.toks.some((t) => ONE_OFF.has(t.norm))) return false;
  // "I have a meeting at 3", "I'm at the dentist at 4": one appointment, unless said as a habit.
  if ((c.verb === 'be' || c.verb === 'have') && !c.toks.some((t) => HABITUALLY.has(t.norm)))
    return false;
  return clockTime(c.toks.slice(Math.max(0, c.verbAt)));
}

/**
 * Where a clause's own words end: before a comma followed only by adverbs or connectors that
 * belong to the next clause ("I ride in every day, even | when it rains").
 */
function danglingFrom(toks: readonly Tok[]): number {
  let end = toks.length;
  while (end > 0 && toks[end - 1]!.pos === 'PUNCT') end--;
  let k = end;
  while (
    k > 0 &&
    (toks[k - 1]!.pos === 'ADV' || toks[k - 1]!.pos === 'CCONJ' || toks[k - 1]!.pos === 'SCONJ')
  )
    k--;
  return k < end && k > 0 && toks[k - 1]!.norm === ',' ? k - 1 : toks.length;
}

/**
 * "I work from home on Mondays", "I can't do meetings before 10am", "I pick up my kids at 3 every
 * day"; of the writer's own team, the team's ("my team deploys on Thursdays": "User's team
 * deploys on Thursdays").
 */
export function schedule(c: Clause): TypedFact[] {
  const team = ownTeam(c);
  if (!team) return scheduleOf(c);
  return scheduleOf(team.clause).map((f) => ({ ...f, text: teamText(f.text, team.noun) }));
}

function scheduleOf(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user' || c.verbAt < 0) return [];
  // "I cycle to work every day": a way to work is a daily habit already (commute).
  if (commute(c).length > 0) return [];
  if (!recurringClause(c) && !dailyRoutine(c)) return [];
  if (
    c.verb === 'be' &&
    !c.toks
      .slice(c.verbAt + 1)
      .some((t) =>
        ['busy', 'free', 'off', 'available', 'away', 'in', 'at', 'out', 'up'].includes(t.norm),
      )
  )
    return [];
  let predicate = predicateText(c, c.subjectEnd, danglingFrom(c.toks));
  const when = frontedTime(c);
  // Too little to be a routine ("I go on Mondays"), unless the time before the subject says
  // when ("Weekend mornings, I run 5k").
  if (predicate.split(' ').length < (when === '' ? 3 : 2)) return [];
  // "I've taken up bouldering, I go twice a week": a "go" with no place or activity of its own
  // goes to the activity named before it in the sentence; without one it says too little.
  if (c.verb === 'go') {
    const next = objectTokens(c)[0];
    if (!next || (next.norm !== 'to' && !isActivity(next))) {
      const before = c.sentence.toks.slice(0, Math.max(0, c.sentence.toks.indexOf(c.toks[0]!)));
      const activity = before.reverse().find(isActivity);
      if (!activity) return [];
      predicate = predicate.replace(/^goes\b/u, `goes ${activity.norm}`);
    }
  }
  const text = when === '' ? predicate : `${predicate} (${when})`;
  // A recurring time is the fact's own when: no date of the message goes with it.
  return factAbout(c, 'schedule', text, text, { salience: 0.6 }).map((f) => ({
    ...f,
    timeless: true,
  }));
}
