// Hobbies, instruments, languages learned or spoken, likes and dislikes.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import {
  inedibleByMeaning,
  languageByMeaning,
  pastimeByMeaning,
  personByMeaning,
} from '../meaning.ts';
import {
  isActivity,
  joinTokens,
  nounList,
  nounPhrase,
  predicateText,
  swapPronoun,
  thirdPersonText,
  type Phrase,
} from '../phrases.ts';
import type { Tok } from '../nlp.ts';
import { isDiet, isInstrument, isJob, personNoun } from '../vocabulary.ts';
import { recurringClause } from './routine.ts';

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

const TIME_ENTITIES = new Set(['DATE', 'DURATION', 'TIME']);

/** Whether a time starts at rest[i]: "last spring", "these days", "on Sundays". */
function isTime(rest: readonly Tok[], i: number): boolean {
  const t = rest[i]!;
  const next = rest[i + 1];
  if (TIME_ENTITIES.has(t.ent ?? '')) return true;
  return t.pos !== 'NOUN' && next !== undefined && TIME_ENTITIES.has(next.ent ?? '');
}

/** The thing liked: a noun phrase ("Thai food") or an activity ("hiking in the Alps"). */
function likedThing(
  rest: readonly Tok[],
  from: number,
): { text: string; activity: boolean } | null {
  const t = rest[from];
  if (!t || DEICTIC.has(t.norm)) return null;
  // "trail running", "sourdough baking": nouns before an activity name its kind.
  let head = from;
  while (rest[head]?.pos === 'NOUN' && !isActivity(rest[head]!) && head - from < 2) head++;
  if (rest[head] && isActivity(rest[head]!)) {
    // the activity with its object, up to the end of the clause's first phrase or a time
    let end = head + 1;
    while (
      rest[end] &&
      rest[end]!.pos !== 'PUNCT' &&
      rest[end]!.pos !== 'CCONJ' &&
      rest[end]!.pos !== 'SCONJ' &&
      rest[end]!.pos !== 'ADV' &&
      !isTime(rest, end) &&
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

/** Words of degree before a taste: "really into", "completely obsessed with", "big into". */
const DEGREE = new Set([
  'so',
  'big',
  'huge',
  'massive',
  'super',
  'kinda',
  'kind',
  'of',
  'well',
  'not',
  "n't",
]);

/** Index of the first word after words of degree ("really", "completely", "big"). */
function afterDegree(rest: readonly Tok[], from = 0): number {
  let i = from;
  while (rest[i] && (rest[i]!.pos === 'ADV' || DEGREE.has(rest[i]!.norm))) i++;
  return i;
}

/**
 * "into climbing", "a (total) sucker for true crime", "a lover of jazz", "(completely) obsessed
 * with knitting", "hooked on Wordle", "a huge fan of Ghibli": everyday ways of saying one likes
 * a thing, after "be" (or with "I'm" left out). `verb` is how the fact says it.
 */
function fondnessIdiom(rest: readonly Tok[]): { verb: string; from: number } | null {
  const i = afterDegree(rest);
  if (rest[i]?.norm === 'into') return { verb: 'is into', from: i + 1 };
  const adj = rest[i];
  const preposition =
    adj && Object.hasOwn(FOND_ADJECTIVES, adj.norm) ? FOND_ADJECTIVES[adj.norm] : null;
  if (adj && preposition && rest[i + 1]?.norm === preposition) {
    return { verb: `is ${adj.norm} ${preposition}`, from: i + 2 };
  }
  // "a huge fan of", or "huge fan of" as chat leaves the article out.
  const article = rest[i]?.norm === 'a' || rest[i]?.norm === 'an' ? 1 : 0;
  for (let k = i + article; k <= i + 3 && rest[k]; k++) {
    const t = rest[k]!;
    if (t.norm === 'fan' && rest[k + 1]?.norm === 'of') return { verb: 'is a fan of', from: k + 2 };
    if (FOND_NOUNS.has(t.norm) && (rest[k + 1]?.norm === 'for' || rest[k + 1]?.norm === 'of')) {
      return { verb: `is a ${t.norm} ${rest[k + 1]!.norm}`, from: k + 2 };
    }
    if (t.pos !== 'ADJ' && t.pos !== 'ADV') return null;
  }
  return null;
}

/** "can't get enough of K-dramas": a negation that says the opposite. */
function cantGetEnough(c: Clause, rest: readonly Tok[]): boolean {
  return (
    c.negated &&
    c.ability &&
    c.verb === 'get' &&
    rest[0]?.norm === 'enough' &&
    rest[1]?.norm === 'of'
  );
}

/** The thing a clause's subject likes, as a fact; nothing when it is a person or not a thing. */
function likedFact(c: Clause, rest: readonly Tok[], verb: string, from: number): TypedFact[] {
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

/**
 * "I love Thai food", "I prefer tea over coffee", "I'm a big fan of jazz", "I'm really into
 * climbing", "I'm completely obsessed with Ghibli films", "I can't get enough of K-dramas".
 */
export function likes(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  if (cantGetEnough(c, rest)) return likedFact(c, rest, "can't get enough of", 2);
  if (c.negated) return [];
  const verb: string | undefined = LIKE_VERBS[c.verb];
  if (verb) return likedFact(c, rest, verb, 0);
  const idiom = c.verb === 'be' ? fondnessIdiom(rest) : null;
  return idiom ? likedFact(c, rest, idiom.verb, idiom.from) : [];
}

/** Idioms of fondness whose negation says a dislike ("not into", "not a fan of"). */
const NEGATABLE_IDIOMS = new Set(['is into', 'is a fan of']);

/**
 * "I hate cilantro", "I don't like horror movies", "I can't stand loud music", "I'm not a fan
 * of jazz", "I'm not into horror".
 */
export function dislikes(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  let verb: string | undefined = DISLIKE_VERBS[c.verb];
  let from = 0;
  if (!verb && c.negated && (c.verb === 'like' || c.verb === 'enjoy')) verb = `doesn't ${c.verb}`;
  if (!verb && c.negated && c.ability && c.verb === 'stand') verb = "can't stand";
  if (!verb && c.negated && c.verb === 'be') {
    const idiom = fondnessIdiom(rest);
    if (idiom && NEGATABLE_IDIOMS.has(idiom.verb)) {
      verb = idiom.verb.replace(/^is /, "isn't ");
      from = idiom.from;
    }
  }
  if (!verb) return [];
  const thing = likedThing(rest, from);
  if (!thing) return [];
  return factAbout(c, 'dislikes', thing.text, `${verb} ${thing.text}`, { salience: 0.6 });
}

/** Words that open a chat fragment without changing whose it is: "ugh", "honestly", "tbh". */
const FRAGMENT_LEAD = new Set(['honestly', 'tbh', 'ngl', 'lol', 'ugh', 'oh', 'also', 'and', 'but']);

/**
 * "big into trail running these days", "not a fan of jazz", "huge fan of Ghibli": a taste said
 * with "I'm" left out, as chat does. Only a fragment that opens its sentence and has neither a
 * verb nor a subject of its own is read.
 */
export function tasteFragment(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'other' || c.verbAt >= 0 || c.toks[0] !== c.sentence.toks[0]) return [];
  let i = 0;
  while (c.toks[i] && (c.toks[i]!.pos === 'INTJ' || FRAGMENT_LEAD.has(c.toks[i]!.norm))) i++;
  const negated = c.toks[i]?.norm === 'not';
  const rest = c.toks.slice(negated ? i + 1 : i);
  const idiom = fondnessIdiom(rest);
  // "into the woods" alone is a title or a direction; "big into", "not into" is a taste.
  if (!idiom || (idiom.verb === 'is into' && afterDegree(rest) === 0 && !negated)) return [];
  const user: Clause = { ...c, subject: { kind: 'user', plural: false }, verb: 'be' };
  if (!negated) return likedFact(user, rest, idiom.verb, idiom.from);
  const thing = NEGATABLE_IDIOMS.has(idiom.verb) ? likedThing(rest, idiom.from) : null;
  if (!thing) return [];
  const verb = idiom.verb.replace(/^is /, "isn't ");
  return factAbout(user, 'dislikes', thing.text, `${verb} ${thing.text}`, { salience: 0.6 });
}

/** Words that judge a thing repellent: "mushrooms are gross", "olives are vile to me". */
const REPELLENT = new Set([
  'gross',
  'disgusting',
  'revolting',
  'vile',
  'nasty',
  'foul',
  'inedible',
  'grim',
  'rank',
]);
/** Pronouns that stand for a thing named earlier in the sentence ("no cilantro, it tastes ..."). */
const THING_PRONOUNS = new Set(['it', 'they', 'those', 'these']);
const DETERMINERS = new Set(['the', 'this', 'that', 'a', 'an', 'his', 'her', 'their', 'your']);

/** The thing a pronoun subject stands for: "no X" before it in the sentence, else the last noun. */
function antecedent(c: Clause): { text: string; refused: boolean } | null {
  const before = c.sentence.toks.slice(0, Math.max(0, c.sentence.toks.indexOf(c.toks[0]!)));
  for (let i = before.length - 1; i >= 0; i--) {
    if (before[i]!.pos !== 'NOUN') continue;
    let start = i;
    while (start > 0 && (before[start - 1]!.pos === 'NOUN' || before[start - 1]!.pos === 'ADJ'))
      start--;
    const refused = before[start - 1]?.norm === 'no';
    if (!refused && DETERMINERS.has(before[start - 1]?.norm ?? '')) return null;
    const np = nounPhrase(before, start);
    return np && !personNoun(np.head) ? { text: np.text, refused } : null;
  }
  return null;
}

/**
 * "mushrooms are gross to me", "olives are disgusting", "ugh no cilantro please, it tastes
 * like soap to me": a food or thing judged repellent is disliked. The judgement must be the
 * writer's: said "to me", or of a thing in general (no article: "the soup is gross" is about
 * one dish), or of a thing refused ("no cilantro").
 */
export function tasteJudged(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.negated || c.past || c.future || c.verbAt < 0) return [];
  if (c.verb !== 'be' && c.verb !== 'taste' && c.verb !== 'smell') return [];
  const rest = objectTokens(c);
  let i = afterDegree(rest);
  // "tastes like soap": vile when the comparison is nothing one eats, or the thing was refused.
  let comparison: Phrase | null = null;
  if (REPELLENT.has(rest[i]?.norm ?? '')) i++;
  else if (c.verb !== 'be' && rest[i]?.norm === 'like') {
    comparison = nounPhrase(rest, i + 1);
    if (!comparison) return [];
    i = comparison.end;
  } else return [];
  const judge = rest[i]?.norm === 'to' || rest[i]?.norm === 'for' ? rest[i + 1]?.norm : null;
  if (judge !== null && judge !== undefined && judge !== 'me' && judge !== 'us') return [];
  const toMe = judge === 'me' || judge === 'us';
  let thing: string | null = null;
  let refused = false;
  const generic = !c.toks.slice(0, c.subjectEnd).some((t) => DETERMINERS.has(t.norm));
  if (c.subject.kind === 'thing') {
    if (generic || toMe) thing = c.subject.noun;
  } else if (c.subject.kind === 'named' && !c.subject.name.includes(' ')) {
    // "Olives are disgusting": a capitalised first word read as a name, when nobody's name.
    if (ctx.words?.has(c.subject.name) && !personByMeaning(ctx.words, c.subject.name))
      thing = c.subject.name;
  } else if (
    c.subject.kind === 'other' &&
    THING_PRONOUNS.has(c.toks[c.subjectEnd - 1]?.norm ?? '')
  ) {
    const earlier = antecedent(c);
    if (earlier && (earlier.refused || toMe)) ({ text: thing, refused } = earlier);
  }
  if (!thing) return [];
  if (comparison && !refused && !(ctx.words && inedibleByMeaning(ctx.words, comparison.head)))
    return [];
  const why = joinTokens(rest.slice(afterDegree(rest), i));
  // "(gross)", "(tastes like soap)": the writer's reason, in their words.
  const reason = c.verb === 'be' ? why : `${c.verb}s ${why}`;
  const user: Clause = { ...c, subject: { kind: 'user', plural: false } };
  return factAbout(user, 'dislikes', thing, `dislikes ${thing} (${reason})`, { salience: 0.6 });
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

/**
 * "My hobbies are knitting and chess", "I go climbing on Saturdays", "I do yoga", "I play
 * tennis", "I'm usually out birdwatching".
 */
export function hobby(c: Clause, ctx?: RuleContext): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  // "I'm out fishing most Sundays": an activity one goes out to do, when it is a pastime.
  if (c.verb === 'be' && !c.past && ctx?.words) {
    const out = afterDegree(rest);
    const t = rest[out + 1];
    if (rest[out]?.norm === 'out' && t && isActivity(t) && pastimeByMeaning(ctx.words, t.norm))
      return factAbout(c, 'hobby', t.norm, `goes ${t.norm}`, { salience: 0.6 });
  }
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
    // "picked up Korean": a language is learned (`learning`), not a pastime.
    if (ctx?.words && languageByMeaning(ctx.words, nounPhrase(rest, 1)?.head ?? '')) return [];
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

/** Verbs of playing an instrument: "I play the cello", "I practise piano most evenings". */
const PLAYING = new Set(['play', 'practise', 'practice']);

/** "I play the cello", "my husband plays guitar and piano", "Most evenings I practise piano". */
export function instrument(c: Clause): TypedFact[] {
  if (!PLAYING.has(c.verb) || c.negated) return [];
  const rest = objectTokens(c);
  const from = rest[0]?.norm === 'the' ? 1 : 0;
  const named = nounList(rest, from).map((np) => np.text);
  // wink reads "piano" after some verbs as the musical direction, an adverb.
  if (named.length === 0 && rest[from]?.pos === 'ADV') named.push(rest[from]!.norm);
  return named
    .filter((text) => isInstrument(text))
    .flatMap((text) => factAbout(c, 'instrument', text, `plays the ${text}`, { salience: 0.65 }));
}

const LEARN_VERBS = new Set(['learn', 'study', 'practice', 'practise']);
/** Verbs before "to learn" / "learning": "trying to pick up", "started learning". */
const LEARNING_LEADS = new Set(['try', 'start', 'begin', 'keep']);

/**
 * The verb of learning a clause says and where its object starts: the main verb ("learning
 * Korean"), or one after a lead ("trying to pick up Korean", "started learning Greek").
 */
function learningVerb(c: Clause, rest: readonly Tok[]): { verb: string; from: number } | null {
  if (!LEARNING_LEADS.has(c.verb)) return { verb: c.verb, from: 0 };
  // "tried to learn" is an attempt that ended; "started learning" goes on.
  if (c.verb === 'try' && c.past && !c.progressive) return null;
  if (rest[0]?.norm === 'to' && rest[1]?.pos === 'VERB') return { verb: rest[1].lemma, from: 2 };
  if (rest[0]?.pos === 'VERB' && rest[0].norm.endsWith('ing'))
    return { verb: rest[0].lemma, from: 1 };
  return null;
}

/** A language named at `from` ("Korean", "my Spanish", "a bit of Italian"), by meaning. */
function languageAt(rest: readonly Tok[], from: number, ctx: RuleContext): string | null {
  const np = nounPhrase(rest, from);
  if (!np || np.none || !ctx.words || !languageByMeaning(ctx.words, np.head)) return null;
  return rest[np.end - 1]!.text;
}

/**
 * "I'm learning Korean", "I've been studying for the bar exam", "I take pottery classes",
 * "trying to pick up Korean", "brushing up on my Spanish", "taking Italian classes".
 */
export function learning(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.negated) return [];
  const rest = objectTokens(c);
  const lead = learningVerb(c, rest);
  if (!lead) return [];
  const { verb: v, from: at } = lead;
  const ongoing = !c.past || c.progressive || LEARNING_LEADS.has(c.verb);
  if (LEARN_VERBS.has(v)) {
    if (!ongoing) return [];
    let from = at;
    if (rest[from]?.norm === 'for') from++;
    if (rest[from]?.norm === 'to' && rest[from + 1]?.pos === 'VERB') {
      const np = nounPhrase(rest, from + 2);
      const what = joinTokens(
        rest.slice(from + 1, np ? np.end : from + 2).map((t) => ({ ...t, text: swapPronoun(t) })),
      );
      return factAbout(c, 'learning', what, `is learning to ${what}`, { salience: 0.65 });
    }
    const np = nounPhrase(rest, from);
    if (!np || np.none || DEICTIC.has(rest[from]!.norm)) return [];
    const what = joinTokens(rest.slice(from, np.end).map((t) => ({ ...t, text: swapPronoun(t) })));
    const verb = v === 'study' ? 'is studying' : 'is learning';
    return factAbout(c, 'learning', np.text, `${verb} ${what}`, { salience: 0.65 });
  }
  // "picking up Korean", "brushing up on my Spanish": only a language is learned this way.
  if ((v === 'pick' || v === 'brush') && rest[at]?.norm === 'up' && ongoing) {
    const on = v === 'brush' && rest[at + 1]?.norm === 'on' ? 1 : 0;
    const language = languageAt(rest, at + 1 + on, ctx);
    if (!language) return [];
    const verb = v === 'brush' ? 'is brushing up on' : 'is learning';
    return factAbout(c, 'learning', language, `${verb} ${language}`, { salience: 0.65 });
  }
  if (v === 'take' && !c.past) {
    const np = nounPhrase(rest, at);
    if (np && /^(?:class|classes|lesson|lessons|course|courses)$/.test(np.head)) {
      // "Italian classes": the language is what is learned.
      const first = rest.slice(at, np.end - 1).find((t) => t.pos !== 'DET');
      const language =
        first && ctx.words && languageByMeaning(ctx.words, first.norm) ? first.text : null;
      return factAbout(c, 'learning', language ?? np.text, `takes ${np.text}`, {
        salience: 0.6,
      });
    }
  }
  return [];
}

/** What a language one grew up with is called: "first", "native", "mother" (tongue). */
const NATIVE = new Set(['native', 'first', 'mother']);

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
  // "Spanish is my first language", "tagalog is my mother tongue": the same, turned round.
  const ownTongue =
    rest[0]?.norm === 'my' &&
    NATIVE.has(rest[1]?.norm ?? '') &&
    (rest[2]?.norm === 'language' || rest[2]?.norm === 'tongue');
  if (c.verb === 'be' && ownTongue && (c.subject.kind === 'named' || c.subject.kind === 'thing')) {
    const said = c.subject.kind === 'named' ? c.subject.name : c.subject.noun;
    const lang = said.charAt(0).toUpperCase() + said.slice(1);
    return userFact('speaks', lang, `User speaks ${lang} natively`, { salience: 0.7 });
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
  if (!recurringClause(c) || object === null) return [];
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
 * The pastime named at `from`: an activity ("bouldering"), with the nouns before it ("trail
 * running", "salsa dancing"), or after "into" a bare noun that is a pastime by meaning
 * ("pottery", not "trouble" or "debt"). Null when there is none.
 */
function pastimeAt(
  rest: readonly Tok[],
  from: number,
  ctx: RuleContext,
  nouns: boolean,
): { text: string; end: number } | null {
  const words = ctx.words;
  if (!words) return null;
  let end = from;
  while (rest[end]?.pos === 'NOUN' && !isActivity(rest[end]!) && end - from < 2) end++;
  const t = rest[end];
  // "trail running": a pastime by the activity's meaning or by its kind's.
  const kind = rest.slice(from, end).some((k) => pastimeByMeaning(words, k.norm));
  if (t && isActivity(t) && (pastimeByMeaning(words, t.norm) || kind))
    return { text: joinTokens(rest.slice(from, end + 1)).toLowerCase(), end: end + 1 };
  const noun = rest[from];
  if (!nouns || !noun || noun.pos !== 'NOUN' || !words.has(noun.norm)) return null;
  if (rest[from + 1]?.pos === 'NOUN' || !pastimeByMeaning(words, noun.norm)) return null;
  return { text: noun.norm, end: from + 1 };
}

/**
 * "started bouldering a couple months ago", "I've begun journaling", "got into rowing",
 * "I've got really into bouldering", "I've been getting into pottery": an activity taken up is
 * a pastime when its meaning says so ("started working at X" is not).
 */
export function startedActivity(c: Clause, ctx: RuleContext): TypedFact[] {
  if (!ctx.words || c.negated || !STARTING.has(c.verb)) return [];
  const rest = objectTokens(c);
  const into = afterDegree(rest);
  const from = c.verb === 'get' ? (rest[into]?.norm === 'into' ? into + 1 : -1) : 0;
  if (from < 0) return [];
  const pastime = pastimeAt(rest, from, ctx, c.verb === 'get');
  if (!pastime) return [];
  // "started running a business": an activity with an object is work, not a pastime.
  // ("a couple months ago", "last spring" are when, not an object.)
  const object = nounPhrase(rest, pastime.end);
  const when =
    TIME_LEADS.has(rest[pastime.end]?.norm ?? '') ||
    rest.slice(pastime.end, (object?.end ?? pastime.end) + 1).some((x) => x.ent !== null);
  if (object && !when) return [];
  const got = c.progressive ? 'is getting into' : 'got into';
  const verb = c.verb === 'get' ? got : c.verb === 'begin' ? 'began' : 'started';
  return factAbout(c, 'hobby', pastime.text, `${verb} ${pastime.text}`, { salience: 0.6 });
}
