// People around the user, by relation and name: manager, partner, children, siblings,
// friends, parents, coworkers (and pets, which people name the same way).
import type { Relation } from '../../../text/relations.ts';
import { objectTokens, type Clause } from '../clause.ts';
import { userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { personRelationByMeaning } from '../meaning.ts';
import { relativeAge } from './identity.ts';
import { article, indexOfWord, joinTokens, nounPhrase, properName } from '../phrases.ts';
import { isSingleValued } from '../../../text/relations.ts';
import { isChildByAge, isDrink, personNoun, singular, type PersonRelation } from '../vocabulary.ts';

/** "User's manager is Priya Raman" / "User has a sister named Ana" / "User has a beagle named Biscuit". */
export function relationText(relation: Relation, noun: string, name: string): string {
  if (isSingleValued(relation)) return `User's ${noun} is ${name}`;
  // "my oldest, Xiomara": "User's oldest child is Xiomara".
  if (isChildByAge(noun)) return `User's ${noun} child is ${name}`;
  return `User has ${article(noun)} ${noun} named ${name}`;
}

function relationFact(relation: PersonRelation, noun: string, name: string): TypedFact[] {
  return userFact(relation, name, relationText(relation, noun, name), {
    salience: relation === 'pet' || relation === 'partner' || relation === 'child' ? 0.8 : 0.75,
  });
}

/** "My sister Ana lives in Rome", "our dog, Rex, ...": the name given with the relation. */
export function relativeNamed(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'relative' || !c.subject.name) return [];
  return relationFact(c.subject.relation, c.subject.noun, c.subject.name).map((f) => ({
    ...f,
    timeless: true,
  }));
}

/** "My manager is Priya Raman", "my dog is called Rex", "my wife's name is Lucia". */
export function relativeIs(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'relative' || c.subject.name) return [];
  // "is called Pepper" reads as the passive of "call"; "is Priya Raman" as a copula.
  const naming = c.verb === 'call' || c.verb === 'name';
  if (c.verb !== 'be' && !naming) return [];
  const rest = objectTokens(c);
  let i = 0;
  if (!naming && (rest[0]?.norm === 'called' || rest[0]?.norm === 'named')) i = 1;
  const name = properName(rest, i);
  if (!name) return [];
  // "My sister is Canadian": a single capitalised adjective is not a name.
  if (i === 0 && !naming && rest[0]!.pos === 'ADJ') return [];
  return relationFact(c.subject.relation, c.subject.noun, name.text);
}

/** "Priya is my manager", "Sam is my best friend". */
export function namedIsMy(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'named' || c.verb !== 'be') return [];
  const rest = objectTokens(c);
  if (rest[0]?.norm !== 'my' && rest[0]?.norm !== 'our') return [];
  const np = nounPhrase(rest, 0);
  if (!np) return [];
  const words = np.text.toLowerCase().split(' ').slice(1);
  const two = words.slice(-2).join(' ');
  const relation = personNoun(two) ?? personNoun(words.at(-1) ?? '');
  if (!relation) return [];
  return relationFact(relation, personNoun(two) ? two : singular(words.at(-1)!), c.subject.name);
}

/** "I have a sister", "I have two kids, Ana and Leo", "I've got a brother named Sam". */
export function haveRelative(c: Clause): TypedFact[] {
  if (c.subject.kind !== 'user' || (c.verb !== 'have' && c.verb !== 'get')) return [];
  const rest = objectTokens(c);
  const np = nounPhrase(rest, rest[0]?.norm === 'got' ? 1 : 0);
  if (!np || np.none) return [];
  const head = np.head;
  const relation = personNoun(head);
  // "I have yerba mate in the mornings": a drink, not a friend.
  if (!relation || relation === 'pet' || isDrink(np.text)) return [];
  const noun = singular(head);
  const ages = new Map<string, number>();
  const names = namesAfter(rest, np.end, ages);
  if (names.length) {
    return names.flatMap((n) => [
      ...relationFact(relation, noun, n),
      // "two kids, Ama who is 7 and Kwesi who is 4"
      ...(ages.has(n) ? relativeAge(noun, n, ages.get(n)!) : []),
    ]);
  }
  return userFact(relation, np.text, `User has ${joinTokens(rest.slice(0, np.end))}`, {
    salience: 0.7,
  });
}

/**
 * Names after a noun phrase: "named Ana", "called Rex", ", Ana and Leo", ", Ama who is 7 and
 * Kwesi who is 4" (with `ages`, each age said after a name is kept there).
 */
export function namesAfter(
  rest: ReturnType<typeof objectTokens>,
  from: number,
  ages?: Map<string, number>,
): string[] {
  let i = from;
  if (rest[i]?.norm === 'named' || rest[i]?.norm === 'called' || rest[i]?.norm === ',') i++;
  else return [];
  const out: string[] = [];
  for (;;) {
    const n = properName(rest, i);
    if (!n) break;
    out.push(n.text);
    i = n.end;
    // "who is 7", "who's 4", "(7)"
    const who = rest[i]?.norm === 'who' && ['is', "'s"].includes(rest[i + 1]?.norm ?? '');
    const said = who ? rest[i + 2] : rest[i]?.norm === '(' ? rest[i + 1] : undefined;
    if (said && /^\d{1,2}$/u.test(said.norm)) {
      ages?.set(n.text, Number(said.norm));
      i += who ? 3 : rest[i + 2]?.norm === ')' ? 3 : 2;
    }
    if (rest[i]?.norm === ',') i++;
    if (rest[i]?.norm === 'and') i++;
    if (i === n.end) break;
  }
  return out;
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
  const out: TypedFact[] = [];
  for (let i = Math.max(c.subjectEnd, 0); i < c.toks.length; i++) {
    const t = c.toks[i]!;
    if (t.norm !== 'my' && t.norm !== 'our') continue;
    // up to three words ending in a relation noun, then a name
    for (let end = i + 1; end <= Math.min(c.toks.length - 1, i + 3); end++) {
      const w = c.toks[end]!;
      if (w.pos !== 'NOUN' && w.pos !== 'ADJ') break;
      const words = c.toks.slice(i + 1, end + 1).map((x) => x.norm);
      const two = words.slice(-2).join(' ');
      const relation = personNoun(two) ?? personNoun(w.norm);
      if (!relation) continue;
      const name = properName(c.toks, end + 1);
      if (!name || c.toks[end + 1]!.ent !== null) break;
      const noun = personNoun(two) ? two : singular(w.norm);
      out.push(...relationFact(relation, noun, name.text).map((f) => ({ ...f, timeless: true })));
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
  const relation = ctx.words ? personRelationByMeaning(ctx.words, noun) : null;
  return userFact(relation, name, `User's ${noun} is ${name}`, {
    salience: 0.7,
  }).map((f) => ({ ...f, timeless: true }));
}
