// Tools and tech stack.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { placeByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { article, nounList, nounPhrase, properName } from '../phrases.ts';
import type { Phrase } from '../phrases.ts';
import {
  isHomeNoun,
  isOrganisationNoun,
  isProgrammingContext,
  isVehicle,
  isWorkNoun,
} from '../vocabulary.ts';

/** Whether the clause is about building software (then a named thing is part of the stack). */
function aboutCode(c: Clause, items: readonly Phrase[]): boolean {
  if (c.verb === 'code' || c.verb === 'program' || c.verb === 'develop') return true;
  if (c.subject.kind === 'possession' && c.subject.noun.split(' ').some(isProgrammingContext))
    return true;
  return (
    c.toks.some((t) => isProgrammingContext(t.lemma)) ||
    items.some((i) => isProgrammingContext(i.head))
  );
}

/** Named things only: "Postgres", "VS Code", "GitHub Actions"; not "a knife". */
function named(items: Phrase[]): Phrase[] {
  return items.filter((p) => p.proper && !p.none);
}

/** Words before a stack's names that only say how much of it they make: "all Go", "mostly Python". */
const STACK_LEAD = new Set(['all', 'mostly', 'entirely', 'just', 'only', 'pure', 'largely']);

/**
 * The part of the user's software a clause names as its subject ("our backend is …"), also
 * after a comma without the possessive again ("our backend is Go, frontend is Svelte"); null
 * when the subject is not such a part of theirs.
 */
function stackPart(c: Clause): string | null {
  const s = c.subject;
  if (s.kind === 'possession') return s.noun.split(' ').some(isProgrammingContext) ? s.noun : null;
  if (s.kind !== 'thing' || !isProgrammingContext(s.noun)) return null;
  const toks = c.sentence.toks;
  const start = toks.indexOf(c.toks[0]!);
  for (let i = 0; i < start; i++) {
    if (toks[i]!.norm !== 'our' && toks[i]!.norm !== 'my') continue;
    if (toks.slice(i + 1, i + 3).some((t) => isProgrammingContext(t.norm))) return s.noun;
  }
  return null;
}

/** Verbs a part of the user's software is made with: "our API is built with FastAPI". */
const MADE_WITH = new Set(['build', 'write', 'power', 'make', 'implement', 'base']);
/** The words before what such a part is made with or runs on. */
const MADE_WITH_PREPOSITIONS = new Set(['on', 'in', 'with', 'by', 'using']);

/**
 * "our stack is mostly Python and Django", "our backend runs on Go with Postgres", "the API is
 * built with FastAPI": what a part of the user's software is or is made with; null when the
 * clause does not say that.
 */
function stackOfPart(c: Clause): TypedFact[] | null {
  const part = stackPart(c);
  if (part === null) return null;
  const rest = objectTokens(c);
  let from = 0;
  if (c.verb === 'be' || c.verb === 'run' || c.verb === 'use' || c.verb === 'rely') {
    if (rest[0]?.norm === 'on' || rest[0]?.norm === 'in') from = 1;
  } else if (MADE_WITH.has(c.verb) && MADE_WITH_PREPOSITIONS.has(rest[0]?.norm ?? '')) {
    from = 1;
  } else {
    return null;
  }
  while (rest[from] && STACK_LEAD.has(rest[from]!.norm)) from++;
  const list = nounList(rest, from);
  const end = list.at(-1)?.end ?? from;
  if (list.length > 0 && rest[end]?.norm === 'with') list.push(...nounList(rest, end + 1));
  return named(list).flatMap((p) =>
    factAbout(
      { ...c, subject: { kind: 'user', plural: false } },
      'stack',
      p.text,
      `uses ${p.text} (${asWritten(c, part)})`,
      { salience: 0.6 },
    ),
  );
}

/** A subject noun as the user wrote it ("API", not "api"). */
function asWritten(c: Clause, noun: string): string {
  return noun
    .split(' ')
    .map((w) => c.sentence.toks.find((t) => t.norm === w)?.text ?? w)
    .join(' ');
}

/** What a team that works in one technology calls itself: "a Rails shop", "a .NET house". */
const SHOP_NOUNS = new Set(['shop', 'house']);

/** "we're a Rails shop", "we're mostly a Python shop": the named technology, or null. */
function stackShop(c: Clause, rest: readonly Tok[]): string | null {
  if (c.verb !== 'be' || c.subject.kind !== 'user' || !c.subject.plural) return null;
  let i = 0;
  while (rest[i] && STACK_LEAD.has(rest[i]!.norm)) i++;
  if (rest[i]?.norm !== 'a' && rest[i]?.norm !== 'an') return null;
  const name = properName(rest, i + 1);
  return name && SHOP_NOUNS.has(rest[name.end]?.norm ?? '') ? name.text : null;
}

/** "We use Postgres and React", "I code in Rust", "I use Obsidian for notes", "our stack is Go and Kafka". */
export function techUse(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const ofPart = stackOfPart(c);
  if (ofPart !== null) return ofPart;
  const rest = objectTokens(c);
  const shop = stackShop(c, rest);
  if (shop) {
    const text = `User's team is ${article(shop)} ${shop} shop`;
    return userFact('stack', shop, text, { salience: 0.6 });
  }
  let items: Phrase[] = [];
  let verb = 'uses';
  if (c.verb === 'use' || c.verb === 'run' || c.verb === 'rely') {
    items = named(nounList(rest, rest[0]?.norm === 'on' ? 1 : 0));
  } else if (
    (c.verb === 'code' ||
      c.verb === 'program' ||
      c.verb === 'write' ||
      c.verb === 'develop' ||
      c.verb === 'work') &&
    rest[0]?.norm === 'in'
  ) {
    items = named(nounList(rest, 1));
    verb = c.verb === 'work' ? 'works in' : 'codes in';
  }
  if (items.length === 0) return [];
  const relation = aboutCode(c, items) ? 'stack' : 'tool';
  return items.flatMap((p) =>
    factAbout(c, relation, p.text, `${verb} ${p.text}`, { salience: 0.6 }),
  );
}

/** A noun phrase read from the start of `c`'s object: used by `switched` to type its values. */
export function objectPhrase(c: Clause, from: number): Phrase | null {
  return nounPhrase(objectTokens(c), from);
}

/** Verbs of making things at work, whose "in <Name>" is the tool they are made in. */
const MAKING = new Set([
  'do',
  'make',
  'build',
  'write',
  'design',
  'draw',
  'edit',
  'sketch',
  'model',
  'plan',
  'track',
  'manage',
  'render',
  'prototype',
]);

/** "all day", "every day", "most days", "all week": how much of the working time. */
function allDay(toks: readonly Tok[], from: number): boolean {
  const a = toks[from]?.norm;
  const b = toks[from + 1]?.norm ?? '';
  return (a === 'all' || a === 'every' || a === 'most') && /^(?:day|days|week|morning)$/.test(b);
}

/** A name after "in" that the word vectors do not put among places ("Figma", not "Leeds"). */
function toolAfterIn(toks: readonly Tok[], i: number, ctx: RuleContext): string | null {
  if (toks[i]?.norm !== 'in' || toks[i + 1]?.ent) return null;
  return toolNamed(toks, i + 1, ctx);
}

/** A name at `i` that the word vectors do not put among places ("Figma", not "Leeds"). */
function toolNamed(toks: readonly Tok[], i: number, ctx: RuleContext): string | null {
  const name = properName(toks, i);
  if (!name || !ctx.words || toks[i]?.ent) return null;
  const known = ctx.words;
  if (name.text.split(/\s+/).some((w) => placeByMeaning(known, w))) return null;
  // "Main Street", "Oxford Road": an address, not a tool.
  if (STREET_WORDS.has(name.head)) return null;
  return name.text;
}

/** The last word of an address: "on Main Street" is where, not what with. */
const STREET_WORDS = new Set(
  'street st road rd avenue ave lane way drive close square park hill station'.split(' '),
);

/**
 * Where work is kept: "in Notion", "on Trello", "on a Trello board", "in our Jira": a name
 * after "in"/"on" and an optional article or "our", not a place by meaning.
 */
function toolWhere(toks: readonly Tok[], i: number, ctx: RuleContext): string | null {
  if (toks[i]?.norm === 'in') return toolAfterIn(toks, i, ctx) ?? toolWhereAfter(toks, i + 1, ctx);
  return toks[i]?.norm === 'on'
    ? (toolNamed(toks, i + 1, ctx) ?? toolWhereAfter(toks, i + 1, ctx))
    : null;
}

/** "a Trello board", "our Jira": an article or possessive, then the tool's name. */
function toolWhereAfter(toks: readonly Tok[], i: number, ctx: RuleContext): string | null {
  if (!['a', 'an', 'the', 'our', 'my'].includes(toks[i]?.norm ?? '')) return null;
  return toolNamed(toks, i + 1, ctx);
}

/** Verbs of keeping work somewhere: "we keep our tickets on a Trello board". */
const KEEPING = new Set(['keep', 'store', 'log', 'save', 'organise', 'organize', 'record']);
/** Verbs of where things of the user's are kept: "our docs live in Notion". */
const KEPT = new Set(['live', 'sit', 'be', 'stay']);

/**
 * "our docs live in Notion", "my notes are all in Obsidian": a thing of the user's kept in a
 * named tool. Homes, workplaces and their people are somewhere, not in a tool.
 */
function keptIn(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind !== 'possession' || !KEPT.has(c.verb)) return [];
  const noun = c.subject.noun;
  const head = noun.split(' ').at(-1) ?? '';
  if (isHomeNoun(head) || isOrganisationNoun(head) || isWorkNoun(head) || isVehicle(head))
    return [];
  const rest = objectTokens(c);
  let from = 0;
  while (rest[from] && (rest[from]!.pos === 'ADV' || rest[from]!.norm === 'all')) from++;
  const tool = toolWhere(rest, from, ctx);
  if (!tool) return [];
  return factAbout(
    { ...c, subject: { kind: 'user', plural: false } },
    'tool',
    tool,
    `keeps their ${asWritten(c, noun)} in ${tool}`,
    { salience: 0.6 },
  );
}

/**
 * "doing all my wireframes in Figma", "I track my budget in YNAB", "I'm in Power BI all day":
 * the named thing work is done in is a tool. Places are left out by meaning ("in Leeds").
 */
export function toolIn(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.negated) return [];
  if (c.subject.kind === 'possession') return keptIn(c, ctx);
  if (c.subject.kind !== 'user') return [];
  const rest = objectTokens(c);
  if (c.verb === 'be') {
    const tool = toolAfterIn(rest, 0, ctx);
    const end = tool ? (properName(rest, 1)?.end ?? 0) : 0;
    if (!tool || !allDay(rest, end)) return [];
    return factAbout(
      c,
      'tool',
      tool,
      `works in ${tool} ${rest[end]!.norm} ${rest[end + 1]!.norm}`,
      {
        salience: 0.6,
      },
    );
  }
  if (!MAKING.has(c.verb) && !KEEPING.has(c.verb)) return [];
  // "all my wireframes", "most of my notes"
  let from = 0;
  while (rest[from] && ['all', 'most', 'of'].includes(rest[from]!.norm)) from++;
  const np = nounPhrase(rest, from);
  if (!np || np.none || np.proper) return [];
  const tool = toolWhere(rest, np.end, ctx);
  if (!tool) return [];
  const what = np.text.replace(/^their /, '');
  // "keeps their recipes in Notion": what is kept there; "uses Figma for wireframes": made in it.
  const text = KEEPING.has(c.verb) ? `keeps their ${what} in ${tool}` : `uses ${tool} for ${what}`;
  return factAbout(c, 'tool', tool, text, { salience: 0.6 });
}
