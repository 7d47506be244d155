// People around the user, by relation and name: manager, partner, children, siblings,
// friends, parents, coworkers (and pets, which people name the same way).
import type { Relation } from '../../../text/relations.ts';
import { objectTokens, type Clause } from '../clause.ts';
import { userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { personRelationByMeaning } from '../meaning.ts';
import { relativeAge } from './identity.ts';
import {
  afterListJoin,
  article,
  indexOfWord,
  joinTokens,
  nounPhrase,
  properName,
} from '../phrases.ts';
import { isSingleValued } from '../../../text/relations.ts';
import type { Tok } from '../nlp.ts';
import {
  isChildByAge,
  isDrink,
  isStructureOfThings,
  personNoun,
  singular,
  type PersonRelation,
} from '../vocabulary.ts';

/** "User's manager is Priya Raman" / "User has a sister named Ana" / "User has a beagle named Biscuit". */
export function relationText(relation: Relation, noun: string, name: string): string {
  if (isSingleValued(relation)) return `User's ${noun} is ${name}`;
  // "my oldest, Xiomara": "User's oldest child is Xiomara".
  if (isChildByAge(noun)) return `User's ${noun} child is ${name}`;
  return `User has ${article(noun)} ${noun} named ${name}`;
}

/** One fact per person: "my brothers, Declan and Ruairi" → a brother named Declan, one named Ruairi. */
function relationFact(relation: PersonRelation, noun: string, name: string): TypedFact[] {
  const one = singular(noun);
  return userFact(relation, name, relationText(relation, one, name), {
    salience: relation === 'pet' || relation === 'partner' || relation === 'child' ? 0.8 : 0.75,
  });
}

/**
 * "My sister Ana lives in Rome", "our dog, Rex, ...", "my sisters, Ana and Bea, are visiting":
 * the name given with the relation, whatever the clause goes on to say.
 */
export function relativeNamed(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'relative' || !c.subject.name) return [];
  const { relation, noun, name } = c.subject;
  // "my child process keeps dying" (a lower-case writer's word read as a name).
  if (isStructureOfThings(noun, name.toLowerCase())) return [];
  // A plural noun names everyone listed, also past the clause ("my kids Sam and Leo are ...").
  const names = isPlural(noun) ? [name, ...namesContinued(c)] : [name];
  return names.flatMap((n) =>
    relationFact(relation, noun, n).map((f) => ({ ...f, timeless: true })),
  );
}

/**
 * "My manager is Priya Raman", "my dog is called Rex", "my wife's name is Lucia", "my older
 * brothers are Declan and Ruairi".
 */
export function relativeIs(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'relative' || c.subject.name) return [];
  // "is called Pepper" reads as the passive of "call"; "is Priya Raman" as a copula.
  let naming = c.verb === 'call' || c.verb === 'name';
  if (c.verb !== 'be' && !naming) return [];
  const rest = objectTokens(c);
  let i = 0;
  if (!naming && (rest[0]?.norm === 'called' || rest[0]?.norm === 'named')) i = 1;
  // "my mum's name is Carol": the verb read is the "'s" of the possessive.
  if (!naming && rest[0]?.norm === 'name' && BE_NAMED.has(rest[1]?.norm ?? '')) {
    i = 2;
    naming = true;
  }
  const name = properName(rest, i);
  if (!name) return [];
  // "My sister is Canadian": a single capitalised adjective is not a name.
  if (i === 0 && !naming && rest[0]!.pos === 'ADJ') return [];
  // "My kids are Real Madrid fans": capitalised words before a noun describe it.
  if (describesNoun(rest, name.end)) return [];
  const { relation, noun } = c.subject;
  if (!isPlural(noun)) return relationFact(relation, noun, name.text);
  // "My parents are Irish": a plural noun is named by a list, one word describes them.
  const names = listedNames(rest, i).names;
  return names.length > 1 ? names.flatMap((n) => relationFact(relation, noun, n)) : [];
}

const BE_NAMED = new Set(['is', 'was', "'s"]);

function isPlural(noun: string): boolean {
  return singular(noun) !== noun.toLowerCase();
}

/** Whether the token at `i` is a common noun the capitalised words before it describe. */
function describesNoun(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  return t !== undefined && t.pos === 'NOUN' && /^\p{Ll}/u.test(t.text);
}

/** "I report to Rhiannon", "I answer to Mr Okafor": whom the user reports to is their manager. */
export function reportsTo(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user' || c.subject.plural) return [];
  if (c.verb !== 'report' && c.verb !== 'answer') return [];
  const rest = objectTokens(c);
  const to = rest.findIndex((t, k) => t.norm === 'to' && k < 2);
  if (to < 0) return [];
  const name = properName(rest, to + 1);
  if (!name || rest[to + 1]?.pos !== 'PROPN') return [];
  return relationFact('manager', 'manager', name.text);
}

/** "Priya is my manager", "Sam is my best friend". */
export function namedIsMy(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'named' || c.verb !== 'be') return [];
  const mine = myPerson(c);
  return mine ? relationFact(mine.relation, mine.noun, c.subject.name) : [];
}

/**
 * "I'll run it past Deirdre Okonkwo first, she's my line manager", "meeting Tom tomorrow, he's
 * my brother": "he" or "she" is the last name said before it in the sentence.
 */
export function pronounIsMy(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'other' || c.verb !== 'be') return [];
  if (c.question || c.hypothetical || c.negated || c.reported) return [];
  const pronoun = c.toks.find((t) => t.pos !== 'PUNCT')?.norm;
  if (pronoun !== 'he' && pronoun !== 'she') return [];
  const mine = myPerson(c);
  const name = mine ? nameBefore(c) : null;
  return mine && name ? relationFact(mine.relation, mine.noun, name) : [];
}

/** "… is my line manager", "… is our best friend": the relation and its noun, or null. */
function myPerson(c: Clause): { relation: PersonRelation; noun: string } | null {
  const rest = objectTokens(c);
  if (rest[0]?.norm !== 'my' && rest[0]?.norm !== 'our') return null;
  const np = nounPhrase(rest, 0);
  if (!np) return null;
  const words = np.text.toLowerCase().split(' ').slice(1);
  const two = words.slice(-2).join(' ');
  const byTwo = personNoun(two);
  if (byTwo) return { relation: byTwo, noun: two };
  const relation = personNoun(words.at(-1) ?? '');
  return relation ? { relation, noun: singular(words.at(-1)!) } : null;
}

/** The last proper name of the sentence before the clause (its whole run), or null. */
function nameBefore(c: Clause): string | null {
  const toks = c.sentence.toks;
  const start = c.toks[0] ? toks.indexOf(c.toks[0]) : -1;
  for (let i = start - 1; i >= 0; i--) {
    if (toks[i]!.pos !== 'PROPN') continue;
    let j = i;
    while (j > 0 && toks[j - 1]!.pos === 'PROPN') j--;
    const name = properName(toks, j);
    return name && name.end > i ? name.text : null;
  }
  return null;
}

/**
 * "I have a sister", "I have two kids, Ana and Leo", "I've got a brother named Sam", "I have a
 * brother named Tom and a sister called Ana", "three kids: Sam, Ava and Leo".
 */
export function haveRelative(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user' || (c.verb !== 'have' && c.verb !== 'get')) return [];
  const rest = sentenceAfter(c, c.verbAt);
  const out: TypedFact[] = [];
  let from = rest[0]?.norm === 'got' ? 1 : 0;
  while (from >= 0) {
    const np = nounPhrase(rest, from);
    if (!np || np.none) break;
    const head = np.head;
    const relation = personNoun(head);
    // "I have yerba mate in the mornings": a drink, not a friend.
    if (!relation || relation === 'pet' || isDrink(np.text)) break;
    const noun = singular(head);
    const ages = new Map<string, number>();
    const named = namesAfter(rest, np.end, ages);
    if (named.names.length === 0) {
      const said = joinTokens(rest.slice(out.length ? from : 0, np.end));
      out.push(...userFact(relation, np.text, `User has ${said}`, { salience: 0.7 }));
    }
    for (const n of named.names) {
      out.push(...relationFact(relation, noun, n));
      // "two kids, Ama who is 7 and Kwesi who is 4"
      if (ages.has(n)) out.push(...relativeAge(noun, n, ages.get(n)!));
    }
    // "a brother named Tom and a sister called Ana", "a sister and two brothers".
    const next = afterListJoin(rest, named.end);
    from = next > named.end ? next : -1;
  }
  return out;
}

/** The sentence's tokens after the clause's token `i`: a list of names may run past the clause. */
function sentenceAfter(c: Clause, i: number): Tok[] {
  const start = c.sentence.toks.indexOf(c.toks[0]!);
  return start < 0 ? c.toks.slice(i + 1) : c.sentence.toks.slice(start + i + 1);
}

/** Names read from a list, and the index just after the last of them. */
export interface NameList {
  names: string[];
  end: number;
}

/**
 * Names after a noun phrase: "named Ana", "called Rex", ", Ana and Leo", ", Ama who is 7 and
 * Kwesi who is 4" (with `ages`, each age said after a name is kept there).
 */
export function namesAfter(
  rest: readonly Tok[],
  from: number,
  ages?: Map<string, number>,
): NameList {
  const lead = rest[from]?.norm;
  // "three kids: Sam, Ava and Leo"
  if (lead !== 'named' && lead !== 'called' && lead !== ',' && lead !== ':') {
    return { names: [], end: from };
  }
  const list = listedNames(rest, from + 1, ages);
  return list.names.length ? list : { names: [], end: from };
}

/** "Ana, Bea and Leo" from `from`: names joined by commas and "and", with ages said after them. */
function listedNames(rest: readonly Tok[], from: number, ages?: Map<string, number>): NameList {
  let i = from;
  let end = from;
  const names: string[] = [];
  for (;;) {
    const n = properName(rest, i);
    if (!n) break;
    names.push(n.text);
    i = n.end;
    // "who is 7", "who's 4", "(7)"
    const who = rest[i]?.norm === 'who' && ['is', "'s"].includes(rest[i + 1]?.norm ?? '');
    const said = who ? rest[i + 2] : rest[i]?.norm === '(' ? rest[i + 1] : undefined;
    if (said && /^\d{1,2}$/u.test(said.norm)) {
      ages?.set(n.text, Number(said.norm));
      i += who ? 3 : rest[i + 2]?.norm === ')' ? 3 : 2;
    }
    end = i;
    if (rest[i]?.norm === ',') i++;
    if (rest[i]?.norm === 'and') i++;
    if (i === end) break;
  }
  return { names, end };
}

/**
 * The names listed after a relative's name in the rest of the sentence: "my sisters, Ana and
 * Bea, are ..." (the clause ends after "Ana" when "and Bea are" opens another one).
 */
function namesContinued(c: Clause): string[] {
  const rest = sentenceAfter(c, c.subjectEnd - 1);
  // The subject may end with the comma that closes "my kids, Sam, Ava and Leo, ...".
  const joined = c.toks[c.subjectEnd - 1]?.norm === ',' || afterListJoin(rest, 0) > 0;
  return joined ? listedNames(rest, afterListJoin(rest, 0)).names : [];
}

/** "I'm married to Sam", "I got engaged to Alex". */
export function married(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user' || (c.verb !== 'be' && c.verb !== 'get' && c.verb !== 'marry'))
    return [];
  const rest = objectTokens(c);
  let i = -1;
  if (c.verb === 'marry') i = 0;
  else {
    const status = rest[0]?.norm;
    if ((status === 'married' || status === 'engaged') && rest[1]?.norm === 'to') i = 2;
  }
  if (i < 0) return [];
  const name = properName(rest, i);
  if (!name) return [];
  const noun = indexOfWord(rest, 'engaged') >= 0 ? 'fiance' : 'partner';
  return relationFact('partner', noun, name.text);
}

/**
 * "had a pint with my best mate Olu", "dinner at my sister Ana's": a relative named where
 * they are mentioned, not only as the subject.
 */
export function relativeMentioned(c: Clause): TypedFact[] {
  return relativesApposed(c.toks, Math.max(c.subjectEnd, 0));
}

/** Verbs that give a name rather than use one ("should we name our son Leo?"). */
const NAMING_VERBS = new Set(['name', 'rename', 'nickname', 'christen']);

/**
 * "What should I get my brother Tom for his birthday?", "if my son Leo doesn't nap ...",
 * "write a bedtime story for my daughter Ines": a relative named in apposition is the user's
 * whatever the clause asks, supposes or requests. Not a name being chosen ("should we name
 * our son Leo?", "what if I called my cat Miso?"): children and pets are the ones given names.
 */
export function relativeTakenForGranted(c: Clause): TypedFact[] {
  return relativesApposed(c.toks, 0, (at, relation) => {
    const before = c.toks[at - 1];
    if (before === undefined) return true;
    if (NAMING_VERBS.has(before.lemma)) return false;
    return before.lemma !== 'call' || (relation !== 'child' && relation !== 'pet');
  });
}

/**
 * Every "my/our <up to three words ending in a relation noun> <Name>" from `from`, where
 * `accept` (given the index of "my"/"our" and the relation) allows it.
 */
function relativesApposed(
  toks: readonly Tok[],
  from: number,
  accept: (at: number, relation: PersonRelation) => boolean = () => true,
): TypedFact[] {
  const out: TypedFact[] = [];
  for (let i = from; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.norm !== 'my' && t.norm !== 'our') continue;
    // up to three words ending in a relation noun, then a name
    for (let end = i + 1; end <= Math.min(toks.length - 1, i + 3); end++) {
      const w = toks[end]!;
      if (w.pos !== 'NOUN' && w.pos !== 'ADJ') break;
      const words = toks.slice(i + 1, end + 1).map((x) => x.norm);
      const two = words.slice(-2).join(' ');
      const relation = personNoun(two) ?? personNoun(w.norm);
      if (!relation) continue;
      const name = properName(toks, end + 1);
      if (!name || toks[end + 1]!.ent !== null || !accept(i, relation)) break;
      // "my parent App component", "my child process": a family word describing a thing.
      const after = toks[name.end]?.norm ?? '';
      if (isStructureOfThings(w.norm, name.head) || isStructureOfThings(w.norm, after)) break;
      const noun = personNoun(two) ? two : w.norm;
      const names = isPlural(noun) ? listedNames(toks, end + 1).names : [name.text];
      for (const n of names) {
        out.push(...relationFact(relation, noun, n).map((f) => ({ ...f, timeless: true })));
      }
      break;
    }
  }
  return out;
}

/**
 * "My head of department, Mr Okafor, wants ...", "my director Sam said": someone named by a
 * role that is not a family word. The role's meaning says which kind of person it is
 * (meaning.ts); when it says none clearly, the fact is kept untyped in the user's words.
 */
export function roleNamed(c: Clause, ctx: RuleContext): TypedFact[] {
  if (c.subject.kind !== 'possession' || !c.subject.name) return [];
  const { noun, name } = c.subject;
  // "my parent component App", "our sister company Acme": things, not people.
  const words = noun.split(' ');
  if (words.length > 1 && isStructureOfThings(words.at(-2)!, words.at(-1)!)) return [];
  const relation = ctx.words ? personRelationByMeaning(ctx.words, noun) : null;
  return userFact(relation, name, `User's ${noun} is ${name}`, {
    salience: 0.7,
  }).map((f) => ({ ...f, timeless: true }));
}
