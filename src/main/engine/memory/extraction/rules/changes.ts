// Changes that supersede or retire an older fact: "I switched from coffee to green tea",
// "we moved from Jenkins to GitHub Actions", "I replaced my car with an e-bike", "we moved off
// Trello, the whole team's on Asana now", and the devices such changes replace ("my phone's a
// Pixel 6", then "gave up on Android and picked up an iPhone 15").
// ("We no longer use X", "I used to ...", "not ... anymore" are handled by the engine: the
// clause's other rules run and their facts are marked ended.)
//
// A device is stored as a tool of the device itself ("user's phone"): tools are many at once,
// but a person has one phone, so a change of device retires every value of that subject (the
// ended "*" fact, facts.ts) before the new one is stored.
import type { Relation } from '../../../text/relations.ts';
import type { WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf, objectTokens, type Clause } from '../clause.ts';
import { clauseDate } from '../dates.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { personByMeaning, placeByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { article, nounPhrase, type Phrase } from '../phrases.ts';
import { deviceKind, isDiet, isDrink, isInstrument, isVehicle } from '../vocabulary.ts';

const SWITCH_VERBS = new Set([
  'switch',
  'change',
  'migrate',
  'move',
  'swap',
  'transition',
  'convert',
  'go',
]);

/** Verbs of giving one thing up for another: "dropped X for Y". */
const DROPPING = new Set(['drop', 'ditch', 'dump', 'abandon']);
/** What "moved … to" may carry when it moves a setup, not a home: "moved everything to X". */
const MOVED_WHOLESALE = new Set(['everything', 'it', 'all', 'things', 'stuff']);

/** The relation a thing's everyday words say it belongs to ("tea" → drink), else null. */
function relationByWords(p: Phrase): Relation | null {
  if (isDrink(p.text)) return 'drink';
  if (isVehicle(p.text)) return 'vehicle';
  if (isDiet(p.text)) return 'diet';
  if (isInstrument(p.text)) return 'instrument';
  return null;
}

/** The relation a thing belongs to: by its words ("tea" → drink), a name → tool, else null. */
export function classifyThing(p: Phrase): Relation | null {
  return relationByWords(p) ?? (branded(p) ? 'tool' : null);
}

const TEXT: Partial<Record<Relation, (x: string) => string>> = {
  drink: (x) => `drinks ${x}`,
  vehicle: (x) => `has ${x}`,
  diet: (x) => `is ${x}`,
  instrument: (x) => `plays ${x}`,
  tool: (x) => `uses ${x}`,
};

/** "I switched (from X) to Y", "we migrated from X to Y", "I replaced X with Y". */
export function switched(c: Clause, ctx?: RuleContext): TypedFact[] {
  if (c.negated || c.future) return [];
  const rest = objectTokens(c);
  let from: Phrase | null = null;
  let to: Phrase | null = null;
  if (SWITCH_VERBS.has(c.verb)) {
    // "switched to", "switched over to", "switched from X to Y", "went from X to Y",
    // "moved everything to X"
    let i = rest[0]?.norm === 'over' || rest[0]?.norm === 'back' ? 1 : 0;
    if (c.verb === 'move' && MOVED_WHOLESALE.has(rest[i]?.norm ?? '')) i++;
    if (rest[i]?.norm === 'from') {
      from = nounPhrase(rest, i + 1);
      if (!from) return [];
      i = from.end;
    }
    if (rest[i]?.norm !== 'to') return [];
    to = nounPhrase(rest, i + 1);
    // "go to X" / "move to X" are only a switch when they leave something ("from X").
    if ((c.verb === 'go' || c.verb === 'move') && !from) {
      if (c.verb === 'go' || !c.sentence.toks.some((t) => t.lemma === 'use')) return [];
    }
  } else if (DROPPING.has(c.verb)) {
    // "we dropped Slack for Microsoft Teams", "ditched my car for a bike"
    from = nounPhrase(rest, 0);
    if (!from || rest[from.end]?.norm !== 'for') return [];
    to = nounPhrase(rest, from.end + 1);
  } else if (c.verb === 'replace' || c.verb === 'swap' || c.verb === 'trade') {
    from = nounPhrase(rest, 0);
    const w = from ? rest[from.end]?.norm : undefined;
    if (!from || (w !== 'with' && w !== 'for')) return [];
    to = nounPhrase(rest, from.end + 1);
  }
  if (!to) return [];
  const relation = classifyThing(to) ?? (from ? classifyThing(from) : null);
  return changeFacts(c, from, to, relation, ctx?.words ?? null);
}

/**
 * The facts of a change from `from` (when named) to `to`: the new value, then the old one ended.
 * A device (both values of one kind by word meaning, or the kind named) is its kind's tool
 * ("user's phone"), and the change retires whatever that device was.
 */
function changeFacts(
  c: Clause,
  from: Phrase | null,
  to: Phrase,
  relation: Relation | null,
  words: WordVectors | null,
): TypedFact[] {
  const say = relation ? TEXT[relation] : undefined;
  const fromText = from ? ` (switched from ${from.text})` : '';
  const kind = relation === 'tool' && c.subject.kind === 'user' ? deviceOf(from, to, words) : null;
  if (kind) {
    const subject = `user's ${kind}`;
    const device = to.text.replace(/^their (?:new )?/, '');
    // "ditched my old phone for a Pixel 8": the old one is only the kind, not a product.
    const old = from && branded(from) ? from.text : null;
    const was = old ? ` (switched from ${old})` : '';
    const retired = old ? `User no longer uses ${old}` : `User replaced their ${kind}`;
    return [
      ...userFact('tool', '*', retired, { subject, ended: true, salience: 0.5 }),
      ...(old
        ? factAbout(c, 'tool', old, `no longer uses ${old}`, { ended: true, salience: 0.5 })
        : []),
      ...userFact('tool', device, `User's ${kind} is ${article(device)} ${device}${was}`, {
        subject,
        salience: 0.7,
      }),
    ];
  }
  const out = factAbout(
    c,
    relation,
    to.text,
    say ? `${say(to.text)}${fromText}` : `switched to ${to.text}${fromText}`,
    { salience: 0.7 },
  );
  if (from && relation) {
    out.push(
      ...factAbout(c, relation, from.text, `no longer ${say!(from.text)}`, {
        ended: true,
        salience: 0.5,
      }),
    );
  }
  return out;
}

/**
 * Word meaning's prototypes of personal devices, with software as their rival: a named product
 * is a device of a kind when it sits clearly nearer that kind than any other and than software
 * ("iPhone", "Android" → phone; "Postgres", "Windows" → none).
 */
const DEVICE_PROTOTYPES: readonly (readonly [string, string])[] = [
  ['smartphone', 'phone'],
  ['laptop', 'laptop'],
  ['tablet', 'tablet'],
  ['console', 'console'],
  ['camera', 'camera'],
  ['headphones', 'headphones'],
  ['software', ''],
];
/** Chosen on our own product names (changes.test.ts): "iPhone" clears it, "iOS" or "Kindle" do not. */
export const DEVICE_MIN_SIMILARITY = 0.6;
export const DEVICE_MIN_MARGIN = 0.15;

/** The kind of device a named product is by word meaning, or null. */
function deviceByMeaning(words: WordVectors, p: Phrase): string | null {
  const word = p.text.split(/\s+/).find((w) => /\p{L}/u.test(w) && words.has(w.toLowerCase()));
  if (!branded(p) || !word) return null;
  const ranked = DEVICE_PROTOTYPES.map(
    ([proto, kind]) => [kind, words.similarity(word.toLowerCase(), proto) ?? -1] as const,
  ).sort((x, y) => y[1] - x[1]);
  const [top, second] = ranked;
  if (!top || !second || top[0] === '') return null;
  return top[1] >= DEVICE_MIN_SIMILARITY && top[1] - second[1] >= DEVICE_MIN_MARGIN ? top[0] : null;
}

/** A kind of device a phrase names itself ("my old phone", "a new laptop"), or null. */
function namedDevice(p: Phrase | null): string | null {
  if (!p) return null;
  for (const w of p.text.toLowerCase().split(/\s+/)) {
    const kind = deviceKind(w);
    if (kind) return kind;
  }
  return null;
}

/**
 * The device a change replaces: the kind one side names, or the kind both sides are by meaning
 * (one side alone is not enough: the vectors put "iPad" among phones).
 */
function deviceOf(from: Phrase | null, to: Phrase, words: WordVectors | null): string | null {
  const named = namedDevice(to) ?? namedDevice(from);
  if (named) return named;
  if (!words || !from) return null;
  const kind = deviceByMeaning(words, to);
  return kind !== null && deviceByMeaning(words, from) === kind ? kind : null;
}

/** Verbs that move off a tool: "moved off Trello", "migrated away from Jira". */
const LEAVING_TOOLS = new Set(['move', 'migrate', 'switch', 'transition', 'get', 'come']);

interface Leaving {
  /** What was left. */
  thing: Phrase;
  /** Tokens of the clause after it, where a replacement may be named. */
  after: Tok[];
  /** Left by a verb that only leaves tools ("moved off"): a name alone is a tool. */
  tool: boolean;
}

/**
 * What a clause says the writer left: "moved off Trello", "moved away from Jira", "gave up
 * (on) Android", "got rid of the car", "stopped using Notion", "ditched Jira".
 */
function leaving(c: Clause): Leaving | null {
  const rest = objectTokens(c);
  let at = -1;
  let tool = false;
  const next = (k: number) => rest[k]?.norm;
  if (LEAVING_TOOLS.has(c.verb) && next(0) === 'off') [at, tool] = [1, true];
  else if (LEAVING_TOOLS.has(c.verb) && next(0) === 'away' && next(1) === 'from')
    [at, tool] = [2, true];
  else if (c.verb === 'give' && next(0) === 'up') at = next(1) === 'on' ? 2 : 1;
  else if (c.verb === 'get' && next(0) === 'rid' && next(1) === 'of') at = 2;
  else if (c.verb === 'stop' && next(0) === 'using') [at, tool] = [1, true];
  else if (DROPPING.has(c.verb)) at = 0;
  if (at < 0) return null;
  const thing = nounPhrase(rest, at);
  if (!thing || thing.none) return null;
  return { thing, after: rest.slice(thing.end), tool };
}

/** Verbs that take up a replacement: "picked up an iPhone", "got a Pixel", "went with Linear". */
const TAKING_UP = new Set(['pick', 'get', 'buy', 'grab', 'switch', 'move', 'go', 'adopt', 'use']);
/** Words between such a verb and what it takes up: "picked up", "switched over to", "went with". */
const TAKING_UP_PARTICLES = new Set(['up', 'over', 'to', 'onto', 'with', 'for', 'using']);
const BE_FORMS = new Set(["'s", 'is', 'are', "'re", 'am', "'m"]);

/**
 * The replacement named in `toks` (what follows what was left): "onto Asana" right away, a verb
 * of taking something up ("and picked up an iPhone 15", "switched to Linear"), or being on it
 * now ("the whole team's on Asana now", "everyone's on Linear now", "we're all on Y").
 */
function replacement(toks: readonly Tok[], leftBy: string): Phrase | null {
  const first = toks[0]?.norm;
  if (
    first === 'onto' ||
    (first === 'to' && leftBy !== 'give') ||
    (first === 'for' && leftBy === 'give')
  )
    return nounPhrase(toks, 1);
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.pos === 'VERB' && TAKING_UP.has(t.lemma)) {
      let j = k + 1;
      while (toks[j] && TAKING_UP_PARTICLES.has(toks[j]!.norm)) j++;
      const np = nounPhrase(toks, j);
      if (np) return np;
    }
    if (BE_FORMS.has(t.norm)) {
      const j = toks[k + 1]?.norm === 'all' ? k + 2 : k + 1;
      if (toks[j]?.norm === 'on') {
        const np = nounPhrase(toks, j + 1);
        if (np) return np;
      }
    }
  }
  return null;
}

/**
 * A product's name: every word capitalised somewhere or a number ("iPhone 15", "Pixel 6",
 * "eBay"), as phrases.ts `proper` reads only a first capital.
 */
function branded(p: Phrase): boolean {
  return p.proper || p.text.split(/\s+/).every((w) => /\p{Lu}/u.test(w) || /^\d+$/.test(w));
}

/** Chat abbreviations may open a message before "I"/"we" ("fyi we moved ...", "tbh I ..."). */
function writersClause(c: Clause): Clause | null {
  if (c.subject.kind === 'user' || c.subject.kind === 'relative') return c;
  if (c.subject.kind !== 'other' || c.verbAt >= 0) return null;
  const k = c.toks.findIndex((t) => t.norm === 'i' || t.norm === 'we');
  if (k < 1 || k > 2 || c.toks.slice(0, k).some((t) => t.pos !== 'NOUN' && t.pos !== 'INTJ'))
    return null;
  const [again] = clausesOf({ ...c.sentence, toks: c.toks.slice(k) });
  return again && again.subject.kind === 'user' ? again : null;
}

/** A name the word vectors know as a place or a person ("gave up on London", "ditched Tom"). */
function placeOrPerson(p: Phrase, words: WordVectors): boolean {
  return p.text.split(/\s+/).some((w) => placeByMeaning(words, w) || personByMeaning(words, w));
}

/**
 * "we moved off Trello last month, the whole team's on Asana now", "we've ditched Jira,
 * everyone's on Linear now", "gave up on Android and picked up an iPhone 15", "moved off Trello
 * onto Asana": something left and what replaced it, in the same clause or the next ones of the
 * sentence. With nothing named instead, only what the words type is ended ("gave up coffee")
 * or a name left by a verb that leaves tools ("we've moved off Jira").
 *
 * Registered for every clause (extract.ts): a chat abbreviation before "we" hides the subject
 * from the clause reader, so the rule finds the writer itself.
 */
export function leftFor(c: Clause, ctx: RuleContext): TypedFact[] {
  const w = writersClause(c);
  if (!w || w.negated || w.future || w.hypothetical || w.question || w.ability) return [];
  const left = leaving(w);
  if (!left) return [];
  // "dropped Slack for Teams", "gave up X for Y": switched reads it.
  if (DROPPING.has(w.verb) && left.after[0]?.norm === 'for') return [];
  const later = clausesOf(w.sentence)
    .filter((k) => w.sentence.toks.indexOf(k.toks[0]!) > w.sentence.toks.indexOf(w.toks.at(-1)!))
    .filter((k) => !k.question && !k.hypothetical && !k.negated && !k.future && !k.reported);
  let to = replacement(left.after, w.verb);
  // "Gave up on Android and picked up an iPhone 15 last week": the change is dated by the clause
  // that names what replaced it (the engine dates the facts by the clause they were read in).
  let dated: Clause | null = null;
  for (const k of later) {
    if (to) break;
    to = replacement(k.toks, w.verb);
    if (to) dated = k;
  }
  const words = ctx.words ?? null;
  const named = (p: Phrase) => branded(p) && words !== null && !placeOrPerson(p, words);
  const typed = (p: Phrase) => {
    return relationByWords(p) ?? (named(p) ? 'tool' : null);
  };
  const fromRelation = typed(left.thing);
  const toRelation = to ? typed(to) : null;
  if (to && toRelation && (fromRelation === null || fromRelation === toRelation)) {
    if (branded(left.thing) && !named(left.thing)) return [];
    const date = dated ? clauseDate(dated, ctx.at) : null;
    const facts = changeFacts(w, left.thing, to, toRelation, words);
    return date ? facts.map((f) => ({ ...f, validFrom: date.at })) : facts;
  }
  const relation = fromRelation;
  if (!relation || (relation === 'tool' && !left.tool && !to)) return [];
  const say = TEXT[relation]!;
  return factAbout(w, relation, left.thing.text, `no longer ${say(left.thing.text)}`, {
    ended: true,
    salience: 0.6,
  });
}

/**
 * "My phone's a Pixel 6", "my laptop is a ThinkPad X1", "my new phone is a Galaxy S24": the
 * device a named product is. "New" or "now" says it replaced the one before.
 */
export function deviceIs(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'possession' || c.verb !== 'be' || c.negated) return [];
  const nouns = c.subject.noun.split(' ');
  const kind = deviceKind(nouns.at(-1)!);
  if (!kind) return [];
  const np = nounPhrase(objectTokens(c), 0);
  if (!np || np.none || !branded(np)) return [];
  const subject = `user's ${kind}`;
  const replaced = nouns.includes('new') || c.toks.some((t) => t.norm === 'now');
  return [
    ...(replaced && !c.ended
      ? userFact('tool', '*', `User replaced their ${kind}`, {
          subject,
          ended: true,
          salience: 0.5,
        })
      : []),
    ...userFact('tool', np.text, `User's ${kind} is ${article(np.text)} ${np.text}`, {
      subject,
      salience: 0.7,
    }),
  ];
}
