// Where someone lives, moved to, or comes from.
import { objectTokens, type Clause } from '../clause.ts';
import { clauseDate, endOf } from '../dates.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { placeByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { joinTokens, placeName, type Phrase } from '../phrases.ts';
import { isHomeNoun } from '../vocabulary.ts';

/** Words that say a home is by a place rather than in it: "near", "(just) outside (of)", "by". */
const NEAR = new Set(['near', 'outside', 'by', 'around']);
/** Particles a verb of moving may carry before its place: "moved back to", "moved out to". */
const MOVE_PARTICLES = new Set(['here', 'back', 'out', 'over', 'up', 'down', 'away']);

/** A word a lower-case writer may have meant as (part of) a name: letters only, a noun or adjective. */
function uncasedWord(t: Tok | undefined): t is Tok {
  return (
    t !== undefined &&
    (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ') &&
    t.ent === null &&
    /^\p{Ll}[\p{Ll}'-]+$/u.test(t.text)
  );
}

/**
 * A place at `from`: capitalised words (phrases.ts placeName), or, for a writer who left it in
 * lower case after a word the truecasing does not read ("just outside tucson", "near new
 * york"), up to three lower-case words of which the last is a place by word meaning.
 */
function placeAt(toks: readonly Tok[], from: number, words: RuleContext['words']): Phrase | null {
  const named = placeName(toks, from);
  if (named || !words) return named;
  let end = from;
  while (end < from + 3 && uncasedWord(toks[end])) end++;
  while (end > from && !placeByMeaning(words, toks[end - 1]!.norm)) end--;
  if (end === from) return null;
  const parts = toks
    .slice(from, end)
    .map((t) => ({ ...t, text: t.text.charAt(0).toUpperCase() + t.text.slice(1) }));
  return {
    text: joinTokens(parts),
    head: parts.at(-1)!.norm,
    end,
    proper: true,
    none: false,
    countable: true,
  };
}

interface PlaceAfter {
  place: Phrase;
  /** The preposition before it ("in", "near", "to"; "close" for "close to"). */
  preposition: string;
}

/**
 * The place after one of `prepositions` right after the verb ("live in Lisbon", "live just
 * outside of Tucson", "live right by Leeds", "live close to York"), or null.
 */
function placeWithPreposition(
  c: Clause,
  prepositions: readonly string[],
  words: RuleContext['words'] = null,
  from = 0,
): PlaceAfter | null {
  const rest = objectTokens(c);
  let i = from;
  while (
    rest[i] &&
    !prepositions.includes(rest[i]!.norm) &&
    (rest[i]!.pos === 'ADV' || MOVE_PARTICLES.has(rest[i]!.norm))
  )
    i++;
  let preposition = rest[i]?.norm;
  if (preposition === 'close' && rest[i + 1]?.norm === 'to' && prepositions.includes('near')) {
    i++;
  } else if (!preposition || !prepositions.includes(preposition)) {
    return null;
  }
  // "just outside of Tucson"
  if (preposition === 'outside' && rest[i + 1]?.norm === 'of') i++;
  const place = placeAt(rest, i + 1, words);
  if (!place) return null;
  // "by Friday", "around March": a time, not a place.
  const ent = rest[i + 1]?.ent;
  if (preposition !== 'in' && preposition !== 'to' && (ent === 'DATE' || ent === 'TIME'))
    return null;
  if (preposition === 'close') preposition = 'near';
  return { place, preposition };
}

/** The place after `preposition` right after the verb ("live in Lisbon"), or null. */
function placeAfter(c: Clause, prepositions: readonly string[]): string | null {
  return placeWithPreposition(c, prepositions)?.place.text ?? null;
}

/**
 * "I live in Lisbon", "I'm based in Austin, Texas", "my sister lives in Rome", "we live just
 * outside tucson": a home near a place is stored as that place.
 */
export function livesIn(c: Clause, ctx?: RuleContext): TypedFact[] {
  if (c.verb !== 'live' && c.verb !== 'base' && c.verb !== 'stay') return [];
  if (c.verb === 'stay' && !c.progressive) return [];
  const found = placeWithPreposition(c, ['in', ...NEAR], ctx?.words ?? null);
  if (!found) return [];
  const place = found.place.text;
  // "I lived in Berlin for years": a home that ended.
  const past = c.past && !c.progressive;
  const where = found.preposition === 'in' ? 'in' : 'near';
  const facts = factAbout(c, 'lives_in', place, `${past ? 'lived' : 'lives'} ${where} ${place}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
  // "we live just outside tucson so summer is ...": a date ahead is not when a home began.
  const dateAhead = !past && !c.ended && ctx !== undefined && isAhead(c, ctx.at);
  return dateAhead ? facts.map((f) => ({ ...f, timeless: true })) : facts;
}

/** Where a move went, and where it left when the clause says ("from Bristol to Edinburgh"). */
interface Move {
  to: PlaceAfter | null;
  from: Phrase | null;
}

/**
 * "moved to Leeds", "relocated from Bristol to Edinburgh", "moved back out to Perth", "moved
 * just outside Tucson", "moved here from Bristol"; null when the clause names no place.
 */
function readMove(c: Clause, words: RuleContext['words']): Move | null {
  const rest = objectTokens(c);
  let i = 0;
  const outOf = (k: number) => rest[k]?.norm === 'out' && rest[k + 1]?.norm === 'of';
  while (rest[i] && !outOf(i) && (rest[i]!.pos === 'ADV' || MOVE_PARTICLES.has(rest[i]!.norm))) i++;
  if (rest[i]?.norm === 'from' || (rest[i]?.norm === 'out' && rest[i + 1]?.norm === 'of')) {
    const at = rest[i]!.norm === 'from' ? i + 1 : i + 2;
    const from = placeAt(rest, at, words);
    if (!from) return null;
    const to = placeWithPreposition(c, ['to', 'near', 'outside'], words, from.end);
    // "moved here from Bristol": where the move left, by word meaning ("from marketing" is not).
    if (!to && !placeByWords(from, words)) return null;
    return { to, from };
  }
  const to = placeWithPreposition(c, ['to', 'near', 'outside'], words) ?? newHomeIn(rest, i, words);
  return to ? { to, from: null } : null;
}

/**
 * "moved into our new place in Porto", "moved to a flat in Leeds": the town of the home moved
 * into. Up to four words between the preposition and the home noun.
 */
function newHomeIn(
  rest: readonly Tok[],
  i: number,
  words: RuleContext['words'],
): PlaceAfter | null {
  if (rest[i]?.norm !== 'into' && rest[i]?.norm !== 'to') return null;
  for (let k = i + 1; k < Math.min(rest.length, i + 6); k++) {
    const t = rest[k]!;
    if (isHomeNoun(t.norm) && t.pos !== 'VERB' && rest[k + 1]?.norm === 'in') {
      const place = placeAt(rest, k + 2, words);
      return place ? { place, preposition: 'to' } : null;
    }
    if (t.pos === 'VERB' || t.pos === 'PUNCT' || t.pos === 'ADP') return null;
  }
  return null;
}

/**
 * "I moved to Lisbon in March", "we relocated to Porto", "we're moving to Oslo next month",
 * "just relocated from Bristol to Edinburgh" (Bristol was home), "my sister moved to Leeds".
 */
export function movedTo(c: Clause, ctx?: RuleContext): TypedFact[] {
  const settling = c.verb === 'settle';
  if (!['move', 'relocate', 'emigrate'].includes(c.verb) && !settling) return [];
  // "we moved to GitHub Actions": a change of tool, not of home (switched handles it).
  if (speaksOfTools(c)) return [];
  const words = ctx?.words ?? null;
  // "settling into Austin", "settled in Leeds": a new home being made.
  const move = settling
    ? { to: placeWithPreposition(c, ['in', 'into'], words), from: null }
    : readMove(c, words);
  if (!move) return [];
  // "since moving to Porto we walk everywhere": a move that happened.
  const since = c.toks[c.verbAt - 1]?.norm === 'since';
  // "We move to Porto in March": the simple present with a date ahead is a move scheduled.
  const scheduled = !c.past && !c.perfect && ctx !== undefined && isAhead(c, ctx.at);
  const ahead = !since && (c.future || scheduled || (c.progressive && !c.past && !settling));
  // Plans are the user's own (a friend's move is news, not a lasting fact).
  if (ahead && c.subject.kind !== 'user') return [];
  const out: TypedFact[] = [];
  const left = move.from?.text;
  if (left && !ahead) {
    // The home the move left: history (a later fact of the same relation supersedes it anyway).
    out.push(
      ...factAbout(c, 'lives_in', left, `used to live in ${left}`, { ended: true, salience: 0.6 }),
    );
  }
  if (!move.to) return out;
  const place = move.to.place.text;
  const near = move.to.preposition === 'near' || move.to.preposition === 'outside';
  const where = near ? `near ${place}` : `to ${place}`;
  if (ahead) {
    return factAbout(c, 'plans', `move to ${place}`, `is moving ${where}`, { plan: true });
  }
  const text = settling ? `is settling into ${place}` : `moved ${where}`;
  out.push(
    ...factAbout(c, 'lives_in', place, settling && c.past ? `settled in ${place}` : text, {
      identity: c.subject.kind === 'user',
      salience: 0.85,
    }),
  );
  return out;
}

/**
 * The sentence speaks of using or migrating things ("we use it for CI", "we migrated"), not of
 * being used to something ("still getting used to the hills").
 */
function speaksOfTools(c: Clause): boolean {
  const toks = c.sentence.toks;
  return toks.some(
    (t, k) => t.lemma === 'migrate' || (t.lemma === 'use' && toks[k + 1]?.norm !== 'to'),
  );
}

/** The clause names a day, month or year that has not ended at `at`, the time of the message. */
function isAhead(c: Clause, at: number): boolean {
  const date = clauseDate(c, at);
  return date !== null && endOf(date) > at;
}

/** Verbs of getting a home: buying, renting, leasing, signing for one, getting the keys. */
const HOME_GETTING = new Set(['buy', 'rent', 'lease', 'sign', 'get', 'find']);
/** Home words that also name other things ("a place in the team", "a studio in Blender"). */
const LOOSE_HOMES = new Set(['place', 'studio', 'home']);

/**
 * "bought a little terraced house in Sheffield", "just signed a lease on a flat in Valencia",
 * "we got the keys to our new place in Leith": a home got in a place is where one lives (or
 * will, when the clause is ahead). Only the user's own home: a friend's purchase is news.
 */
export function homeIn(c: Clause, ctx?: RuleContext): TypedFact[] {
  if (c.subject.kind !== 'user' || c.negated || !HOME_GETTING.has(c.verb)) return [];
  const rest = objectTokens(c);
  // The home noun within the first few words ("a little terraced house", "a lease on a flat",
  // "the keys to our new place"), then "in <Place>".
  const home = rest.slice(0, 8).findIndex((t) => isHomeNoun(t.norm));
  if (home < 0 || rest[home + 1]?.norm !== 'in') return [];
  const place = placeName(rest, home + 2);
  if (!place) return [];
  // "a place in Python", "a studio in Blender": words that name more than homes need the
  // place to be one by meaning ("Leith" after "house" is a place whatever the vectors say).
  // "our new place" is a home by its possessive.
  const owned = rest
    .slice(Math.max(0, home - 2), home)
    .some((t) => t.norm === 'our' || t.norm === 'my');
  if (LOOSE_HOMES.has(rest[home]!.norm) && !owned && !placeByWords(place, ctx?.words ?? null))
    return [];
  // "signed a lease ..., starting in April": a home from a date ahead is a move to come.
  const ahead = c.future || (ctx !== undefined && isAhead(c, ctx.at));
  if (ahead) {
    return factAbout(c, 'plans', `move to ${place.text}`, `is moving to ${place.text}`, {
      plan: true,
    });
  }
  return factAbout(c, 'lives_in', place.text, `lives in ${place.text}`, {
    identity: true,
    salience: 0.85,
  });
}

/** "I'm from Porto", "I grew up in Leeds", "my dad was born in Lagos". */
export function comesFrom(c: Clause): TypedFact[] {
  let place: string | null = null;
  if (c.verb === 'be') place = placeAfter(c, ['from']);
  else if (c.verb === 'come') place = placeAfter(c, ['from']);
  else if (c.verb === 'grow' && objectTokens(c)[0]?.norm === 'up') {
    const rest = objectTokens(c).slice(1);
    place = rest[0]?.norm === 'in' ? (placeName(rest, 1)?.text ?? null) : null;
  } else if (c.verb === 'bear' || c.verb === 'raise') place = placeAfter(c, ['in']);
  if (!place) return [];
  return factAbout(c, 'from', place, `is from ${place}`, { salience: 0.75 });
}

/**
 * Whether a name is a place for a rule that has no verb of living to go by: the word vectors
 * put it among named places (meaning.ts), or they do not know it at all (a small town, a name
 * with letters the vectors never saw). A word they know as something else ("Python", "Excel",
 * "Slack") is not a place.
 */
function placeByWords(place: Phrase, words: RuleContext['words']): boolean {
  if (!words) return false;
  const parts = place.text.split(/[\s,]+/).filter((w) => w !== '');
  if (parts.some((w) => placeByMeaning(words, w))) return true;
  return parts.every((w) => !words.has(w.toLowerCase()));
}

/** Where a clause starts, past connectors and punctuation. */
function clauseStart(toks: readonly Tok[]): number {
  let i = 0;
  while (toks[i] && (toks[i]!.pos === 'PUNCT' || toks[i]!.pos === 'CCONJ')) i++;
  return i;
}

/** Spans of time long enough to live somewhere; days and weeks are a trip. */
const LIVING_SPANS = /^(?:years?|months?|winters?|summers?|autumns?|springs?|decades?)$/;

/**
 * "Two winters in Bristol now and ...", "Six months in Lisbon now": a span of living, a place,
 * and no verb, as chat sums up how long the writer has lived somewhere.
 */
export function timeIn(c: Clause, ctx: RuleContext): TypedFact[] {
  const toks = c.toks;
  const i = clauseStart(toks);
  const count = toks[i];
  if (!count || (count.pos !== 'NUM' && count.norm !== 'a' && count.norm !== 'few')) return [];
  const span = toks[i + 1];
  if (!span || !LIVING_SPANS.test(span.norm) || toks[i + 2]?.norm !== 'in') return [];
  const place = placeName(toks, i + 3);
  if (!place || !placeByWords(place, ctx.words)) return [];
  // Nothing but "now", "already" or the clause's end after the place: no verb of its own.
  const after = toks[place.end];
  if (after && after.pos !== 'PUNCT' && !['now', 'already', 'and'].includes(after.norm)) return [];
  const how = `${count.text.toLowerCase()} ${span.norm}`;
  return userFact('lives_in', place.text, `User has lived in ${place.text} for ${how}`, {
    identity: true,
    salience: 0.85,
  });
}

/** Whose a clause is when it says nothing of anyone else ("he", "her", "their"...). */
const THIRD_PERSON = new Set(['he', 'she', 'they', 'his', 'her', 'their', 'them', 'him']);

/** "Ever since the move to Leeds I sleep better", "since our move to Porto": a move that happened. */
export function sinceMove(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind === 'named' || c.toks.some((t) => THIRD_PERSON.has(t.norm))) return [];
  for (let i = 0; i < c.toks.length - 3; i++) {
    if (c.toks[i]!.norm !== 'since') continue;
    const owner = c.toks[i + 1]!.norm;
    if (!['the', 'my', 'our'].includes(owner) || c.toks[i + 2]!.norm !== 'move') continue;
    if (c.toks[i + 3]!.norm !== 'to') continue;
    // "the move to Postgres" is as common as a move of home: only a place the vectors know.
    const place = placeName(c.toks, i + 4);
    const known = ctx.words;
    if (!place || !known || !place.text.split(/[\s,]+/).some((w) => placeByMeaning(known, w)))
      return [];
    return userFact('lives_in', place.text, `User moved to ${place.text}`, {
      identity: true,
      salience: 0.85,
    });
  }
  return [];
}

/**
 * "Back in Recife my grandmother made tapioca", "back home in Accra we used to ...": a place
 * the writer remembers as where they lived, told in the past, is where they come from.
 */
export function backHome(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind !== 'user' && c.subject.kind !== 'relative' && c.subject.kind !== 'possession')
    return [];
  if (!c.past && !c.usedTo) return [];
  const toks = c.toks;
  let i = clauseStart(toks);
  if (toks[i]?.norm !== 'back') return [];
  i++;
  if (toks[i]?.norm === 'home') i++;
  if (toks[i]?.norm !== 'in') return [];
  const place = placeName(toks, i + 1);
  if (!place || !placeByWords(place, ctx.words)) return [];
  return userFact('from', place.text, `User is from ${place.text}`, { salience: 0.75 }).map(
    (f) => ({ ...f, timeless: true }),
  );
}
