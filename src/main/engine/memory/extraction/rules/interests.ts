// Hobbies, instruments, languages learned or spoken, likes and dislikes.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type RuleContext, type TypedFact } from '../fact.ts';
import { pastimeByMeaning } from '../meaning.ts';
import {
  isActivity,
  joinTokens,
  nounList,
  nounPhrase,
  predicateText,
  swapPronoun,
  thirdPersonText,
} from '../phrases.ts';
import type { Tok } from '../nlp.ts';
import { isDiet, isInstrument, isJob, personNoun } from '../vocabulary.ts';
import { recurring } from './routine.ts';

const DEICTIC = new Set([
  'it',
  'that',
  'this',
  'them',
  'you',
  'those',
  'these',
  'him',
  'her',
  'everything',
  'anything',
  'nothing',
  'something',
]);

/** The thing liked: a noun phrase ("Thai food") or an activity ("hiking in the Alps"). */
function likedThing(
  rest: readonly Tok[],
  from: number,
): { text: string; activity: boolean } | null {
  const t = rest[from];
  if (!t || DEICTIC.has(t.norm)) return null;
  if (isActivity(t)) {
    // the activity with its object, up to the end of the clause's first phrase
    let end = from + 1;
    while (
      rest[end] &&
      rest[end]!.pos !== 'PUNCT' &&
      rest[end]!.pos !== 'CCONJ' &&
      rest[end]!.pos !== 'SCONJ' &&
      end - from < 6
    )
      end++;
    return { text: thirdPersonText(rest.slice(from, end)), activity: true };
  }
  if (t.norm === 'to' && rest[from + 1]?.pos === 'VERB') return null; // "love to" → hypotheticalish
  const np = nounPhrase(rest, from);
  if (!np || np.none) return null;
  let end = np.end;
  // "books about space", "food from Sichuan"
  if (rest[end] && ['about', 'from', 'with', 'by'].includes(rest[end]!.norm)) {
    const more = nounPhrase(rest, end + 1);
    if (more) end = more.end;
  }
  return {
    text: thirdPersonText(rest.slice(from, end)).replace(/^(?:the|a|an) /i, ''),
    activity: false,
  };
}

const LIKE_VERBS: Record<string, string> = {
  like: 'likes',
  love: 'loves',
  enjoy: 'enjoys',
  adore: 'adores',
  prefer: 'prefers',
};
const DISLIKE_VERBS: Record<string, string> = {
  hate: 'hates',
  dislike: 'dislikes',
  detest: 'detests',
  loathe: 'loathes',
};

/** Nouns for someone who loves a thing: "a sucker for", "a lover of", "a nut for". */
const FOND_NOUNS = new Set(['sucker', 'lover', 'nut', 'fiend', 'junkie', 'geek', 'nerd', 'buff']);
/** Adjectives of fondness with their preposition: "obsessed with", "hooked on". */
const FOND_ADJECTIVES: Record<string, string> = {
  obsessed: 'with',
  addicted: 'to',
  hooked: 'on',
  crazy: 'about',
  mad: 'about',
  passionate: 'about',
  keen: 'on',
};

/**
 * "a (total) sucker for true crime", "a lover of jazz", "obsessed with knitting", "hooked on
 * Wordle": everyday ways of saying one likes a thing, after "be".
 */
function fondnessIdiom(rest: readonly Tok[]): { verb: string; from: number } | null {
  let i = 0;
  while (
    rest[i] &&
    (rest[i]!.norm === 'so' || rest[i]!.norm === 'totally' || rest[i]!.norm === 'really')
  )
    i++;
  const adj = rest[i];
  const preposition =
    adj && Object.hasOwn(FOND_ADJECTIVES, adj.norm) ? FOND_ADJECTIVES[adj.norm] : null;
  if (adj && preposition && rest[i + 1]?.norm === preposition) {
    return { verb: `is ${adj.norm} ${preposition}`, from: i + 2 };
  }
  if (rest[i]?.norm !== 'a' && rest[i]?.norm !== 'an') return null;
  for (let k = i + 1; k <= i + 3 && rest[k]; k++) {
    const t = rest[k]!;
    if (FOND_NOUNS.has(t.norm) && (rest[k + 1]?.norm === 'for' || rest[k + 1]?.norm === 'of')) {
      return { verb: `is a ${t.norm} ${rest[k + 1]!.norm}`, from: k + 2 };
    }
    if (t.pos !== 'ADJ' && t.pos !== 'ADV') return null;
  }
  return null;
}

/** "I love Thai food", "I prefer tea over coffee", "I'm a big fan of jazz", "I'm into climbing". */
export function likes(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  let verb: string | undefined = LIKE_VERBS[c.verb];
  let from = 0;
  if (!verb && c.verb === 'be') {
    if (rest[0]?.norm === 'into') {
      verb = 'is into';
      from = 1;
    } else {
      const fan = rest.findIndex((t) => t.norm === 'fan');
      if (fan >= 0 && fan <= 3 && rest[fan + 1]?.norm === 'of') {
        verb = 'is a fan of';
        from = fan + 2;
      } else {
        const idiom = fondnessIdiom(rest);
        if (idiom) ({ verb, from } = idiom);
      }
    }
  }
  if (!verb) return [];
  const thing = likedThing(rest, from);
  if (!thing) return [];
  // "I really liked the hiring manager", "I love my sister": a person liked is not a taste.
  const liked = nounPhrase(rest, from);
  const person = liked ? personNoun(liked.head) : null;
  if (liked && !liked.proper && ((person !== null && person !== 'pet') || isJob(liked.head)))
    return [];
  let text = thing.text;
  // "prefer tea over coffee"
  const over = rest.findIndex((t) => t.norm === 'over' || t.norm === 'to');
  if (c.verb === 'prefer' && over > from) {
    const other = nounPhrase(rest, over + 1);
    const preferred = nounPhrase(rest, from);
    if (other && preferred) text = `${preferred.text} over ${other.text}`;
  }
  const relation = thing.activity ? 'hobby' : 'likes';
  const object = c.verb === 'prefer' ? (nounPhrase(rest, from)?.text ?? thing.text) : thing.text;
  return factAbout(c, relation, object, `${verb} ${text}`, { salience: 0.6 });
}

/** "I hate cilantro", "I don't like horror movies", "I can't stand loud music". */
export function dislikes(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  let verb: string | undefined = DISLIKE_VERBS[c.verb];
  if (!verb && c.negated && (c.verb === 'like' || c.verb === 'enjoy')) verb = `doesn't ${c.verb}`;
  if (!verb && c.negated && c.ability && c.verb === 'stand') verb = "can't stand";
  if (!verb) return [];
  const thing = likedThing(rest, 0);
  if (!thing) return [];
  return factAbout(c, 'dislikes', thing.text, `${verb} ${thing.text}`, { salience: 0.6 });
}

/** "My favorite band is Radiohead", "my favourite food is ramen". */
export function favorite(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'possession' || c.verb !== 'be') return [];
  const m = /^(?:favorite|favourite|fave|fav) (.+)$/.exec(c.subject.noun);
  if (!m) return [];
  const rest = objectTokens(c);
  const np = nounPhrase(rest, 0);
  if (!np) return [];
  return factAbout(
    { ...c, subject: { kind: 'user', plural: false } },
    'likes',
    np.text,
    `'s favorite ${m[1]} is ${np.text}`,
    { salience: 0.65 },
  ).map((f) => ({ ...f, text: f.text.replace("User 's", "User's") }));
}

/** "My hobbies are knitting and chess", "I go climbing on Saturdays", "I do yoga", "I play tennis". */
export function hobby(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  if (
    c.subject.kind === 'possession' &&
    /^(?:hobby|hobbies|pastime|pastimes)$/.test(c.subject.noun)
  ) {
    // wink reads "are knitting" as a progressive: the list starts after the copula.
    let from = c.subjectEnd;
    while (c.toks[from] && ['is', 'are', 'include', 'includes'].includes(c.toks[from]!.norm))
      from++;
    const items = activityList(c.toks, from);
    return items.flatMap((a) =>
      factAbout({ ...c, subject: { kind: 'user', plural: false } }, 'hobby', a, `enjoys ${a}`, {
        salience: 0.6,
      }),
    );
  }
  if (c.verb === 'go' && rest[0] && isActivity(rest[0])) {
    return factAbout(c, 'hobby', rest[0].norm, `goes ${rest[0].norm}`, { salience: 0.6 });
  }
  if (c.verb === 'do' || c.verb === 'practice' || c.verb === 'practise') {
    const np = nounPhrase(rest, 0);
    // "doing the dishes", "doing a film evening": a chore or a one-off with its article, not
    // a pastime (those are done bare: "I do yoga", "we do escape rooms", "a bit of pottery").
    const quantity = rest[2]?.norm === 'of';
    // "doing my taxes", "I do my best work at night": one's own task, not a pastime.
    const chore =
      ['the', 'it', 'my', 'our', 'his', 'her', 'their'].includes(rest[0]?.norm ?? '') ||
      (!quantity && ['a', 'an'].includes(rest[0]?.norm ?? ''));
    if (!np || np.none || np.proper || chore || isDiet(np.text)) return [];
    return factAbout(c, 'hobby', np.text, `does ${np.text}`, { salience: 0.55 });
  }
  if (c.verb === 'play') {
    const np = nounPhrase(rest, rest[0]?.norm === 'the' ? 1 : 0);
    if (!np || np.none || isInstrument(np.text)) return [];
    return factAbout(c, 'hobby', np.text, `plays ${np.text}`, { salience: 0.6 });
  }
  // "took up pottery", "picked up the ukulele": a pastime or an instrument started.
  if ((c.verb === 'take' || c.verb === 'pick') && rest[0]?.norm === 'up') {
    const thing = likedThing(rest, 1);
    if (!thing) return [];
    const what = thing.text;
    const relation = isInstrument(what) ? 'instrument' : 'hobby';
    // "picked up some milk": only a pastime or an instrument is picked up for good.
    if (c.verb === 'pick' && relation === 'hobby' && !thing.activity) return [];
    const verb = `${c.verb === 'take' ? 'took' : 'picked'} up`;
    return factAbout(
      c,
      relation,
      what,
      `${verb} ${relation === 'instrument' ? 'the ' : ''}${what}`,
      {
        salience: 0.6,
      },
    );
  }
  return [];
}

function activityList(rest: readonly Tok[], from: number): string[] {
  const out: string[] = [];
  let i = from;
  while (i < rest.length) {
    const t = rest[i]!;
    if (t.norm === ',' || t.norm === 'and' || t.pos === 'PUNCT') {
      i++;
      continue;
    }
    const np = nounPhrase(rest, i);
    if (np) {
      out.push(np.text);
      i = np.end;
    } else if (t.pos === 'VERB') {
      let end = i + 1;
      while (rest[end] && rest[end]!.pos !== 'PUNCT' && rest[end]!.pos !== 'CCONJ') end++;
      out.push(joinTokens(rest.slice(i, end)));
      i = end;
    } else i++;
  }
  return out;
}

/** "I play the cello", "my husband plays guitar and piano". */
export function instrument(c: Clause): TypedFact[] {
  if (c.verb !== 'play' || c.negated) return [];
  const rest = objectTokens(c);
  return nounList(rest, rest[0]?.norm === 'the' ? 1 : 0)
    .filter((np) => isInstrument(np.text))
    .flatMap((np) =>
      factAbout(c, 'instrument', np.text, `plays the ${np.text}`, { salience: 0.65 }),
    );
}

/** "I'm learning Korean", "I've been studying for the bar exam", "I take pottery classes". */
export function learning(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  if (c.verb === 'learn' || c.verb === 'study' || c.verb === 'practice' || c.verb === 'practise') {
    if (c.past && !c.progressive) return [];
    let from = 0;
    if (rest[0]?.norm === 'for') from = 1;
    if (rest[0]?.norm === 'to' && rest[1]?.pos === 'VERB') {
      const np = nounPhrase(rest, 2);
      const what = joinTokens(
        rest.slice(1, np ? np.end : 2).map((t) => ({ ...t, text: swapPronoun(t) })),
      );
      return factAbout(c, 'learning', what, `is learning to ${what}`, { salience: 0.65 });
    }
    const np = nounPhrase(rest, from);
    if (!np || np.none || DEICTIC.has(rest[from]!.norm)) return [];
    const what = joinTokens(rest.slice(from, np.end).map((t) => ({ ...t, text: swapPronoun(t) })));
    const verb = c.verb === 'study' ? 'is studying' : 'is learning';
    return factAbout(c, 'learning', np.text, `${verb} ${what}`, { salience: 0.65 });
  }
  if (c.verb === 'take' && !c.past) {
    const np = nounPhrase(rest, 0);
    if (np && /^(?:class|classes|lesson|lessons|course|courses)$/.test(np.head)) {
      return factAbout(c, 'learning', np.text, `takes ${np.text}`, { salience: 0.6 });
    }
  }
  return [];
}

/** "I speak Spanish and a bit of German", "I'm fluent in Dutch", "my native language is Greek". */
export function speaks(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  let from = -1;
  if (c.verb === 'speak') from = 0;
  else if (c.verb === 'be' && rest[0]?.norm === 'fluent' && rest[1]?.norm === 'in') from = 2;
  else if (
    c.verb === 'be' &&
    c.subject.kind === 'possession' &&
    /(?:native|first|mother) (?:language|tongue)$/.test(c.subject.noun)
  ) {
    const np = nounPhrase(rest, 0);
    return np
      ? factAbout(
          { ...c, subject: { kind: 'user', plural: false } },
          'speaks',
          np.text,
          `speaks ${np.text} natively`,
          { salience: 0.7 },
        )
      : [];
  }
  if (from < 0) return [];
  const langs: string[] = [];
  let i = from;
  while (i < rest.length) {
    const t = rest[i]!;
    if (/^\p{Lu}/u.test(t.text) && t.pos !== 'PUNCT') langs.push(t.text);
    i++;
  }
  return langs.flatMap((l) => factAbout(c, 'speaks', l, `speaks ${l}`, { salience: 0.7 }));
}

/** "boulder" → "bouldering", "run" → "running", "hike" → "hiking", "row" → "rowing". */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith('ing')) return v;
  if (v.endsWith('ie')) return `${v.slice(0, -2)}ying`;
  if (/[^aeioy]e$/.test(v)) return `${v.slice(0, -1)}ing`;
  // one syllable ending in one vowel and one consonant doubles it ("swim", "jog")
  if (/^[^aeiou]*[aeiou][bdgklmnprt]$/.test(v)) return `${v}${v.at(-1)}ing`;
  return `${v}ing`;
}

/** Units that measure exercise: "run 5k", "swim 40 lengths", "do 3 sets". */
const EXERCISE_UNITS = new Set(['k', 'km', 'miles', 'laps', 'lengths', 'reps', 'sets', 'steps']);

/** Travel by motor: its miles are not exercise ("I drive 40 miles every day"). */
const MOTORISED = new Set(['drive', 'commute', 'fly', 'travel']);

/** What follows the verb: nothing, a measure of exercise ("5k", "40 lengths"), or neither. */
function objectKind(rest: readonly Tok[]): 'bare' | 'measured' | null {
  const t = rest[0];
  if (
    !t ||
    t.pos === 'PUNCT' ||
    t.pos === 'ADV' ||
    t.ent === 'DATE' ||
    t.ent === 'DURATION' ||
    TIME_LEADS.has(t.norm)
  )
    return 'bare';
  if (t.pos !== 'NUM') return null;
  // "three times a week": the frequency itself.
  if (rest[1]?.norm === 'times') return 'bare';
  return EXERCISE_UNITS.has(rest[1]?.norm ?? '') ? 'measured' : null;
}

/**
 * "I boulder three times a week", "I run 5k most mornings", "I row most weekends": an activity
 * done as a habit with no object is a pastime when its -ing form is one by meaning (meaning.ts;
 * "I work three days a week" is not); with a measure of exercise ("5k", "40 lengths") it is
 * exercise whatever the vectors say.
 */
export function hobbyByFrequency(c: Clause, ctx: RuleContext): TypedFact[] {
  if (!ctx.words || c.subject.kind !== 'user' || c.negated || c.past) return [];
  if (c.verbAt < 0 || c.verb === 'be' || c.verb === 'have' || c.verb === 'do') return [];
  const object = objectKind(objectTokens(c));
  if (!recurring(c.toks) || object === null) return [];
  const activity = gerund(c.verb);
  // A measure of distance or sets says exercise by itself, unless the miles are driven.
  const exercise = object === 'measured' && !MOTORISED.has(c.verb);
  if (!exercise && !pastimeByMeaning(ctx.words, activity)) return [];
  return factAbout(c, 'hobby', activity, `'s hobby is ${activity} (${predicateText(c)})`, {
    salience: 0.6,
  }).map((f) => ({ ...f, text: f.text.replace("User 's", "User's") }));
}

const STARTING = new Set(['start', 'begin', 'get']);
/** Words that open a time rather than an object: "last spring", "this year", "every week". */
const TIME_LEADS = new Set(['last', 'this', 'next', 'every', 'each', 'most']);

/**
 * "started bouldering a couple months ago", "I've begun journaling", "got into rowing": an
 * activity taken up is a pastime when its meaning says so ("started working at X" is not).
 */
export function startedActivity(c: Clause, ctx: RuleContext): TypedFact[] {
  if (!ctx.words || c.negated || !STARTING.has(c.verb)) return [];
  const rest = objectTokens(c);
  const from = c.verb === 'get' ? (rest[0]?.norm === 'into' ? 1 : -1) : 0;
  const t = rest[from];
  if (!t || !isActivity(t) || !pastimeByMeaning(ctx.words, t.norm)) return [];
  // "started running a business": an activity with an object is work, not a pastime.
  // ("a couple months ago", "last spring" are when, not an object.)
  const object = nounPhrase(rest, from + 1);
  const when =
    TIME_LEADS.has(rest[from + 1]?.norm ?? '') ||
    rest.slice(from + 1, (object?.end ?? from + 1) + 1).some((x) => x.ent !== null);
  if (object && !when) return [];
  const verb = c.verb === 'get' ? 'got into' : c.verb === 'begin' ? 'began' : 'started';
  return factAbout(c, 'hobby', t.norm, `${verb} ${t.norm}`, { salience: 0.6 });
}
