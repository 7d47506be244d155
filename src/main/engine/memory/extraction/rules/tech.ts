// Tools and tech stack.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { placeByMeaning, softwareByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { article, nounPhrase, ownTeam, properName, teamText } from '../phrases.ts';
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

/**
 * The SIF weight (word-vectors.ts) under which a word is among the 1,400 or so most frequent:
 * such a word says a kind of thing ("email", "software", "internet"), not a product's name.
 * The same bound as truecase.ts `EVERYDAY_MAX_WEIGHT`.
 */
const EVERYDAY_MAX_WEIGHT = 0.95;

/**
 * A tool a lower-case writer names: "excel", "dbt", "vscode", "github actions": one lower-case
 * word that is software by meaning (meaning.ts `softwareByMeaning`; "excel" is, "pencil" is
 * not), or one the vectors do not know where `unknownOk` says only a tool can stand, with a
 * second lower-case noun of its name after it. Not a plural ("templates", "inhalers"), an
 * everyday word, or a phrase with an article, a possessive or a number first.
 */
function lowerCaseTool(
  toks: readonly Tok[],
  i: number,
  ctx: RuleContext,
  unknownOk: boolean,
): Phrase | null {
  const t = toks[i];
  const words = ctx.words;
  if (!words || !t || t.ent !== null || !/^\p{Ll}[\p{Ll}\p{N}]+$/u.test(t.text)) return null;
  // wink reads a known name as a verb now and then ("use excel").
  const known = words.has(t.norm);
  const nominal = ['NOUN', 'PROPN', 'X'].includes(t.pos) || (t.pos === 'VERB' && known);
  if (!nominal || (t.pos === 'NOUN' && t.lemma !== t.norm)) return null;
  if (known ? words.weight(t.norm) < EVERYDAY_MAX_WEIGHT : !unknownOk) return null;
  if (known && !softwareByMeaning(words, t.norm)) return null;
  const next = toks[i + 1];
  const two = next?.pos === 'NOUN' && next.ent === null && /^\p{Ll}+$/u.test(next.text);
  const name = two ? [t, next] : [t];
  return {
    text: name.map((w) => w.text).join(' '),
    head: name.at(-1)!.norm,
    end: i + name.length,
    proper: false,
    none: false,
    countable: true,
  };
}

/**
 * The tools a list names from `from`: "Postgres and React", "GitHub Actions", also as a
 * lower-case writer names them ("excel", "dbt and snowflake"); not "a knife" or "my notes".
 */
function toolList(
  toks: readonly Tok[],
  from: number,
  ctx: RuleContext,
  unknownOk: boolean,
): Phrase[] {
  const out: Phrase[] = [];
  let i = from;
  for (;;) {
    const np = nounPhrase(toks, i);
    const lower = np?.proper ? null : lowerCaseTool(toks, i, ctx, unknownOk);
    let end: number;
    if (np?.proper && !np.none) {
      out.push(np);
      end = np.end;
    } else if (lower && (!np || lower.end === np.end)) {
      out.push(lower);
      end = lower.end;
    } else if (np) {
      end = np.end;
    } else break;
    i = end;
    while (toks[i] && (toks[i]!.norm === ',' || toks[i]!.norm === 'and' || toks[i]!.norm === 'or'))
      i++;
    if (i === end) break;
  }
  return out;
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
function stackOfPart(c: Clause, ctx: RuleContext): TypedFact[] | null {
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
  // A part of the software is made with software: a word nobody knows there is a tool's name.
  const list = toolList(rest, from, ctx, true);
  const end = list.at(-1)?.end ?? from;
  if (list.length > 0 && rest[end]?.norm === 'with')
    list.push(...toolList(rest, end + 1, ctx, true));
  return list.flatMap((p) =>
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

/**
 * "We use Postgres and React", "I code in Rust", "I use Obsidian for notes", "our stack is Go and
 * Kafka", "we use dbt"; said of the writer's own team, of the team ("our team uses dbt", "our
 * squad is on Kubernetes": "User's team uses dbt").
 */
export function techUse(c: Clause, ctx: RuleContext): TypedFact[] {
  const team = ownTeam(c);
  if (!team) return techUseOf(c, ctx, false);
  return techUseOf(team.clause, ctx, true).map((f) => ({
    ...f,
    text: teamText(f.text, team.noun),
  }));
}

function techUseOf(c: Clause, ctx: RuleContext, team: boolean): TypedFact[] {
  if (c.negated) return [];
  const ofPart = stackOfPart(c, ctx);
  if (ofPart !== null) return ofPart;
  const rest = objectTokens(c);
  const shop = stackShop(c, rest);
  if (shop) {
    const text = `User's team is ${article(shop)} ${shop} shop`;
    return userFact('stack', shop, text, { salience: 0.6 });
  }
  let items: Phrase[] = [];
  let verb = 'uses';
  const on = rest[0]?.norm === 'on' ? 1 : 0;
  // What the writer's team uses, or anything used to build software, is a tool even when the
  // vectors do not know its name ("our team uses dbt"); "I use retinol", "we use cloth
  // nappies" may be anything.
  const shared = team || aboutCode(c, []);
  if (c.verb === 'use' || c.verb === 'rely' || (c.verb === 'run' && on > 0)) {
    items = toolList(rest, on, ctx, shared);
  } else if (c.verb === 'run') {
    // "we run Kubernetes"; "I run marathons" is no tool, so only a name.
    items = toolList(rest, 0, ctx, false).filter((p) => p.proper);
  } else if (team && c.verb === 'be' && on > 0) {
    // "our squad is on Kubernetes": what the team works on.
    const tool = toolNamed(rest, 1, ctx, true);
    if (tool) items = toolList(rest, 1, ctx, true).filter((p) => p.text === tool);
  } else if (
    (c.verb === 'code' ||
      c.verb === 'program' ||
      c.verb === 'write' ||
      c.verb === 'develop' ||
      c.verb === 'work') &&
    rest[0]?.norm === 'in'
  ) {
    items = toolList(rest, 1, ctx, true);
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
function toolAfterIn(
  toks: readonly Tok[],
  i: number,
  ctx: RuleContext,
  unknownOk = false,
): string | null {
  if (toks[i]?.norm !== 'in' || toks[i + 1]?.ent) return null;
  return toolNamed(toks, i + 1, ctx, unknownOk);
}

/**
 * A name at `i` that the word vectors do not put among places ("Figma", not "Leeds"), or a
 * lower-case one that is software by meaning ("vscode").
 */
function toolNamed(
  toks: readonly Tok[],
  i: number,
  ctx: RuleContext,
  unknownOk = false,
): string | null {
  const name = properName(toks, i) ?? lowerCaseTool(toks, i, ctx, unknownOk);
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
function toolWhere(
  toks: readonly Tok[],
  i: number,
  ctx: RuleContext,
  unknownOk = false,
): string | null {
  if (toks[i]?.norm === 'in')
    return toolAfterIn(toks, i, ctx, unknownOk) ?? toolWhereAfter(toks, i + 1, ctx);
  return toks[i]?.norm === 'on'
    ? (toolNamed(toks, i + 1, ctx, unknownOk) ?? toolWhereAfter(toks, i + 1, ctx))
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
  // "our CI is on GitHub Actions": a part of the software, read by techUse.
  if (stackOfPart(c, ctx) !== null) return [];
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

/** The pronoun that stands for all the work: "I do everything in VS Code". */
const EVERYTHING = /^everything$/;

/**
 * The verb of making and where its object starts: "do" in "I do everything in vscode", where
 * wink reads "everything" after "do" as the verb.
 */
function makingVerb(c: Clause): { verb: string; rest: Tok[] } {
  const v = c.toks[c.verbAt];
  const before = c.toks[c.verbAt - 1];
  if (v && EVERYTHING.test(v.norm) && before?.norm === 'do' && c.verbAt - 1 >= c.subjectEnd)
    return { verb: 'do', rest: c.toks.slice(c.verbAt) };
  return { verb: c.verb, rest: objectTokens(c) };
}

/**
 * "doing all my wireframes in Figma", "I track my budget in YNAB", "I'm in Power BI all day",
 * "i do everything in vscode": the named thing work is done in is a tool. Places are left out
 * by meaning ("in Leeds"). Said of the writer's own team, of the team ("our team models
 * everything in dbt on top of Snowflake").
 */
export function toolIn(c: Clause, ctx: RuleContext): TypedFact[] {
  const team = ownTeam(c);
  if (!team) return toolInOf(c, ctx, false);
  return toolInOf(team.clause, ctx, true).map((f) => ({
    ...f,
    text: teamText(f.text, team.noun),
  }));
}

function toolInOf(c: Clause, ctx: RuleContext, team: boolean): TypedFact[] {
  if (c.negated) return [];
  if (c.subject.kind === 'possession') return keptIn(c, ctx);
  if (c.subject.kind !== 'user') return [];
  if (c.verb === 'be') {
    const rest = objectTokens(c);
    const tool = toolAfterIn(rest, 0, ctx);
    // "Power BI", "excel": the name's words after "in".
    const end = tool ? 1 + tool.split(' ').length : 0;
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
  const { verb, rest } = makingVerb(c);
  if (!MAKING.has(verb) && !KEEPING.has(verb)) return [];
  // "all my wireframes", "most of my notes", "everything"
  let from = 0;
  while (rest[from] && ['all', 'most', 'of'].includes(rest[from]!.norm)) from++;
  const all = rest[from] && EVERYTHING.test(rest[from]!.norm) ? rest[from]!.norm : null;
  const np = all ? null : nounPhrase(rest, from);
  if (!all && (!np || np.none || np.proper)) return [];
  const end = np?.end ?? from + 1;
  // Where a team does its work is a tool whatever the vectors know ("models everything in dbt").
  const tool = toolWhere(rest, end, ctx, team);
  if (!tool) return [];
  const what = all ?? np!.text.replace(/^their /, '');
  // "keeps their recipes in Notion": what is kept there; "uses Figma for wireframes": made in it.
  const text = KEEPING.has(verb) ? `keeps their ${what} in ${tool}` : `uses ${tool} for ${what}`;
  const facts = factAbout(c, 'tool', tool, text, { salience: 0.6 });
  return [...facts, ...onTopOf(c, rest, end, ctx)];
}

/**
 * "... in dbt on top of Snowflake": what the tool just named runs on is another tool. `at` is
 * where the words of the first tool's place start.
 */
function onTopOf(c: Clause, rest: readonly Tok[], at: number, ctx: RuleContext): TypedFact[] {
  const i = rest.findIndex(
    (t, k) =>
      k > at && t.norm === 'on' && rest[k + 1]?.norm === 'top' && rest[k + 2]?.norm === 'of',
  );
  if (i < 0 || i > at + 4) return [];
  const tool = toolNamed(rest, i + 3, ctx);
  return tool ? factAbout(c, 'tool', tool, `uses ${tool}`, { salience: 0.6 }) : [];
}
