// People and pets named in an aside: a role and a name side by side, one of them in brackets
// or after "=" ("Siobhán (the boss)", "Mum (Lan)", "the guinea pigs (Pierogi and Kluska)",
// "(Paçoca = the cat)"), and someone named by what they do for the user ("Ingrid approves
// our deploys as team lead"). Chat writers explain who a name is this way, in passing, in any
// order; what stands beside the name says which kind of person it is.
import type { Clause } from '../clause.ts';
import { userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { personRelationByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { properName } from '../phrases.ts';
import { personNoun, singular, type PersonRelation } from '../vocabulary.ts';
import { relationText } from './people.ts';

interface Role {
  relation: PersonRelation;
  /** The role's noun as the fact writes it ("boss", "elder sis", "guinea pig"). */
  noun: string;
}

/** Determiners a role may open with: the user's own ("my", "our") or the one everyone knows ("the"). */
const ROLE_OPENERS = new Set(['the', 'my', 'our']);

/** Words that stop a role: whose role it is when it is not the user's ("his boss", "Tom's"). */
const OTHER_OWNERS = new Set(['his', 'her', 'their', 'your', "'s", 'its']);

/**
 * The kind of person (or animal) a short run of words names: "the boss", "elder sis", "gf",
 * "the guinea pigs", "Mum". The last word or two decide, from the everyday words
 * (vocabulary.ts), else by meaning (meaning.ts) when the vectors are loaded. Null for
 * anything else, and for a role that is someone else's.
 */
export function roleOf(toks: readonly Tok[], words: RuleContext['words']): Role | null {
  let i = 0;
  if (toks[0] && ROLE_OPENERS.has(toks[0].norm)) i = 1;
  const body = toks.slice(i);
  if (body.length === 0 || body.length > 3) return null;
  if (body.some((t) => OTHER_OWNERS.has(t.norm))) return null;
  // As written, lower case: wink's normal form respells some words ("mum" → "mom").
  const norms = body.map((t) => t.text.toLowerCase());
  const two = norms.slice(-2).join(' ');
  const last = norms.at(-1)!;
  // "team lead": wink tags "lead" as a verb; the everyday words are known whatever the tags.
  if (personNoun(two)) return { relation: personNoun(two)!, noun: singular(two) };
  const nominal = body.every((t) => t.pos === 'NOUN' || t.pos === 'ADJ' || t.pos === 'PROPN');
  if (!nominal) return null;
  const byWord = personNoun(last);
  // "elder sis", "little bro": the whole phrase, with the noun in the singular.
  if (byWord) return { relation: byWord, noun: [...norms.slice(0, -1), singular(last)].join(' ') };
  const byMeaning = words ? personRelationByMeaning(words, norms.join(' ')) : null;
  return byMeaning ? { relation: byMeaning, noun: norms.join(' ') } : null;
}

/** Names in a run of tokens: "Lan", "Pierogi and Kluska", "Tobi, Kemi"; null when anything else is there. */
function namesOnly(toks: readonly Tok[]): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i < toks.length) {
    const name = properName(toks, i);
    if (!name || toks[i]!.pos !== 'PROPN') return null;
    out.push(name.text);
    i = name.end;
    if (toks[i]?.norm === ',' || toks[i]?.norm === 'and' || toks[i]?.norm === '&') i++;
  }
  return out.length ? out : null;
}

function asideFacts(role: Role, names: readonly string[]): TypedFact[] {
  return names.flatMap((name) =>
    userFact(role.relation, name, relationText(role.relation, role.noun, name), {
      salience: 0.75,
    }).map((f) => ({ ...f, timeless: true })),
  );
}

/** The words right before `end` that make a name ("Siobhán", "Mzee Otieno") or a role ("the guinea pigs"). */
function before(toks: readonly Tok[], end: number): Tok[] {
  let start = end;
  while (start > 0 && end - start < 4) {
    const t = toks[start - 1]!;
    if (t.pos === 'PUNCT' || t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'ADP') break;
    if (t.pos === 'CCONJ' || t.pos === 'SCONJ' || t.pos === 'PRON' || t.pos === 'ADV') {
      // "my sister (Ana)"; "his wife (Ana)" keeps "his", so the role is not the user's.
      if (t.norm === 'my' || t.norm === 'our' || OTHER_OWNERS.has(t.norm)) start--;
      break;
    }
    if (OTHER_OWNERS.has(t.norm)) {
      start--;
      break;
    }
    start--;
    if (t.norm === 'the') break;
  }
  return toks.slice(start, end);
}

/** "who I report to", "the one I answer to": the user's manager, said by what they do. */
const REPORTS_TO =
  /^(?:who|whom|that|the\s+one|the\s+person)\s+(?:i|we)\s+(?:report|answer)\s+to$/iu;

/** A pair of a name and a role, either way round. */
function pair(
  outside: readonly Tok[],
  inside: readonly Tok[],
  words: RuleContext['words'],
): TypedFact[] {
  const outsideNames = namesOnly(outside);
  // "Rhiannon (who I report to)": the role said by what the user does.
  if (outsideNames && REPORTS_TO.test(inside.map((t) => t.text).join(' ')))
    return asideFacts({ relation: 'manager', noun: 'manager' }, outsideNames);
  const insideRole = outsideNames ? roleOf(inside, words) : null;
  if (outsideNames && insideRole) return asideFacts(insideRole, outsideNames);
  const insideNames = namesOnly(inside);
  const outsideRole = insideNames ? roleOf(outside, words) : null;
  if (insideNames && outsideRole) return asideFacts(outsideRole, insideNames);
  return [];
}

/**
 * "Siobhán (the boss) has ...", "Mum (Lan) turns 60", "Kasia (gf) and I", "the guinea pigs
 * (Pierogi and Kluska)": a name with its role in brackets, or a role with its names.
 */
export function bracketedRole(c: Clause, ctx: RuleContext): TypedFact[] {
  const out: TypedFact[] = [];
  for (let open = 1; open < c.toks.length; open++) {
    if (c.toks[open]!.norm !== '(') continue;
    const close = c.toks.findIndex((t, k) => k > open && t.norm === ')');
    if (close < 0) break;
    out.push(...pair(before(c.toks, open), c.toks.slice(open + 1, close), ctx.words));
    open = close;
  }
  return out;
}

/** "(Paçoca = the cat, for the record)", "Gerald = my brother": a name set equal to a role. */
export function nameEqualsRole(c: Clause, ctx: RuleContext): TypedFact[] {
  const out: TypedFact[] = [];
  for (let eq = 1; eq < c.toks.length - 1; eq++) {
    if (c.toks[eq]!.text !== '=') continue;
    let end = eq + 1;
    while (end < c.toks.length && c.toks[end]!.pos !== 'PUNCT') end++;
    out.push(...pair(before(c.toks, eq), c.toks.slice(eq + 1, end), ctx.words));
  }
  return out;
}

/**
 * "Ingrid approves all our deploys as team lead", "Sam signs my timesheets as my manager":
 * someone named who acts for the user in a role that names a kind of person.
 */
export function namedAsRole(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind !== 'named' || c.verbAt < 0) return [];
  for (let i = c.verbAt + 1; i < c.toks.length - 1; i++) {
    if (c.toks[i]!.norm !== 'as') continue;
    let end = i + 1;
    while (end < c.toks.length && !['PUNCT', 'CCONJ', 'ADP'].includes(c.toks[end]!.pos)) end++;
    const role = roleOf(c.toks.slice(i + 1, end), ctx.words);
    // "as a kid", "as a friend": a role with "a" is what someone was, not who they are to the user.
    if (!role || role.relation === 'pet') return [];
    return asideFacts(role, [c.subject.name]);
  }
  return [];
}
