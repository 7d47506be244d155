// Diet, allergies and health constraints.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, userFact, type TypedFact } from '../fact.ts';
import { indexOfWord, joinTokens, nounList, nounPhrase, predicateText } from '../phrases.ts';
import { isCondition, isDiet, isDietFood } from '../vocabulary.ts';

/** "I'm vegetarian", "I'm on a keto diet", "I eat vegan", "I don't eat meat". */
export function diet(c: Clause): TypedFact[] {
  if (c.subject.kind === 'relative' && c.subject.relation === 'pet') return [];
  const rest = objectTokens(c);
  if (
    c.verb === 'be' ||
    c.verb === 'go' ||
    c.verb === 'become' ||
    c.verb === 'eat' ||
    c.verb === 'follow' ||
    c.verb === 'do'
  ) {
    // "vegetarian", "a vegan", "on a keto diet", "gluten-free"
    let i = 0;
    while (
      rest[i] &&
      ['a', 'an', 'on', 'strictly', 'mostly', 'fully', 'completely'].includes(rest[i]!.norm)
    )
      i++;
    const word = joinTokens(rest.slice(i, rest[i + 1]?.norm === '-' ? i + 3 : i + 1)).toLowerCase();
    if (isDiet(word) && !c.negated) {
      const verb = c.verb === 'eat' ? 'eats' : c.verb === 'do' ? 'does' : 'is';
      return factAbout(c, 'diet', word, `${verb} ${word}`, {
        salience: 0.8,
      });
    }
  }
  if (c.verb === 'eat' && c.negated) {
    const np = nounPhrase(rest, 0);
    if (np && isDietFood(np.text)) {
      return factAbout(c, 'diet', `no ${np.text}`, `doesn't eat ${np.text}`, { salience: 0.8 });
    }
  }
  return [];
}

/** "I'm allergic to peanuts and shellfish", "I have a nut allergy", "I'm lactose intolerant". */
export function allergy(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  if (c.negated) return [];
  if (
    c.verb === 'be' &&
    (rest[0]?.norm === 'allergic' || rest[0]?.norm === 'intolerant') &&
    rest[1]?.norm === 'to'
  ) {
    const kind = rest[0].norm;
    return nounList(rest, 2).flatMap((np) =>
      factAbout(c, 'allergy', np.text, `is ${kind} to ${np.text}`, { salience: 0.85 }),
    );
  }
  if (c.verb === 'be' && rest[1]?.norm === 'intolerant') {
    const what = rest[0]!.norm;
    return factAbout(c, 'allergy', what, `is ${what} intolerant`, { salience: 0.85 });
  }
  if (c.verb === 'have') {
    const np = nounPhrase(rest, 0);
    if (np && !np.none && (np.head === 'allergy' || np.head === 'allergies')) {
      const what = np.text.split(' ').slice(0, -1).join(' ');
      if (what)
        return factAbout(
          c,
          'allergy',
          what,
          `has ${np.text.startsWith(what) ? `a ${np.text}` : np.text}`,
          { salience: 0.85 },
        );
    }
  }
  return [];
}

/** "I have celiac disease", "I was diagnosed with asthma", "I'm pregnant", "I have a bad knee". */
export function healthCondition(c: Clause): TypedFact[] {
  const rest = objectTokens(c);
  if (c.negated) return [];
  if (c.verb === 'have' || c.verb === 'suffer' || c.verb === 'diagnose') {
    const from = rest[0]?.norm === 'from' || rest[0]?.norm === 'with' ? 1 : 0;
    const np = nounPhrase(rest, from);
    if (!np || np.none) return [];
    if (c.verb === 'have' && !isCondition(np.text)) return [];
    if (np.head === 'allergy' || np.head === 'allergies') return [];
    const text =
      c.verb === 'diagnose'
        ? `was diagnosed with ${np.text}`
        : `has ${joinTokens(rest.slice(from, np.end)).replace(/^my /i, 'a ')}`;
    return factAbout(c, 'health', np.text, text, { salience: 0.85 });
  }
  if (c.verb === 'be' && rest[0]?.norm === 'pregnant') {
    return factAbout(c, 'health', 'pregnant', 'is pregnant', { salience: 0.85 });
  }
  return [];
}

const REACTIONS = new Set([
  'jittery',
  'sick',
  'nauseous',
  'bloated',
  'anxious',
  'dizzy',
  'sleepy',
  'drowsy',
  'tired',
  'ill',
  'itchy',
  'queasy',
  'shaky',
  'restless',
  'wired',
]);

/** "Coffee makes me jittery", "dairy gives me a stomach ache": something the user's body reacts to. */
export function sensitivity(c: Clause): TypedFact[] {
  if ((c.subject.kind !== 'thing' && c.subject.kind !== 'named') || c.negated) return [];
  const rest = objectTokens(c);
  if (rest[0]?.norm !== 'me') return [];
  const thing = c.subject.kind === 'thing' ? c.subject.noun : c.subject.name.toLowerCase();
  if (c.verb === 'make' && rest[1] && (REACTIONS.has(rest[1].norm) || rest[1].pos === 'ADJ')) {
    const effect = rest[1].text;
    return userFact('health', thing, `${cap(thing)} makes User ${effect}`, { salience: 0.7 });
  }
  if (
    c.verb === 'give' &&
    indexOfWord(rest, 'headache') +
      indexOfWord(rest, 'ache') +
      indexOfWord(rest, 'heartburn') +
      indexOfWord(rest, 'migraine') >
      -4
  ) {
    return userFact('health', thing, `${cap(thing)} gives User ${predicateText(c, c.verbAt + 2)}`, {
      salience: 0.7,
    });
  }
  return [];
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
