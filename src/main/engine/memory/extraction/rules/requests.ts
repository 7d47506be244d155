// Lasting wishes the user states as a request to the assistant: "please never put coriander
// in recipes for me", "don't ever suggest Java". A one-off instruction ("don't use bullet
// points here") is about the answer being written, not about the user: only "never" or
// "don't ever" make a request a standing one.
import { objectTokens, type Clause } from '../clause.ts';
import { userFact, type TypedFact } from '../fact.ts';
import { nounPhrase, thirdPersonText } from '../phrases.ts';

/** Verbs of giving something to the user (in a recipe, an answer, a plan). */
const GIVING = new Set([
  'put',
  'add',
  'use',
  'include',
  'give',
  'serve',
  'suggest',
  'recommend',
  'offer',
  'send',
  'book',
  'schedule',
]);
const DEICTIC = new Set(['it', 'that', 'this', 'them', 'those', 'these', 'me', 'anything']);

/** Whether the request stands for good: "never", or a negation with "ever". */
function standing(c: Clause): boolean {
  const before = c.toks.slice(0, c.verbAt);
  return (
    before.some((t) => t.norm === 'never') || (c.negated && before.some((t) => t.norm === 'ever'))
  );
}

/** "Please never put coriander in recipes for me" → "User doesn't want coriander in recipes". */
export function avoidRequest(c: Clause): TypedFact[] {
  if (!c.imperative || c.verbAt < 0 || !c.negated || !GIVING.has(c.verb) || !standing(c)) return [];
  const rest = objectTokens(c);
  if (!rest[0] || DEICTIC.has(rest[0].norm)) return [];
  const np = nounPhrase(rest, 0);
  if (!np || np.none) return [];
  // "recipes with mushrooms": the unwanted thing is what comes with.
  let object = np;
  let end = np.end;
  if (rest[end]?.norm === 'with') {
    const inner = nounPhrase(rest, end + 1);
    if (inner && !inner.none) ({ object, end } = { object: inner, end: inner.end });
  }
  // "... in recipes", "... to my coffee": where it is not wanted, without "for me".
  if (['in', 'on', 'to', 'into'].includes(rest[end]?.norm ?? '')) {
    const where = nounPhrase(rest, end + 1);
    if (where) end = where.end;
  }
  const what = thirdPersonText(rest.slice(0, end));
  return userFact('dislikes', object.text, `User doesn't want ${what}`, { salience: 0.65 });
}
