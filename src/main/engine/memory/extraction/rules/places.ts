// Where someone lives, moved to, or comes from.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type RuleContext, type TypedFact } from '../fact.ts';
import { placeName } from '../phrases.ts';

/** The place after `preposition` right after the verb ("live in Lisbon"), or null. */
function placeAfter(c: Clause, prepositions: readonly string[]): string | null {
  const rest = objectTokens(c);
  let i = 0;
  while (
    rest[i] &&
    (rest[i]!.pos === 'ADV' || rest[i]!.norm === 'here' || rest[i]!.norm === 'back')
  )
    i++;
  if (!rest[i] || !prepositions.includes(rest[i]!.norm)) return null;
  return placeName(rest, i + 1)?.text ?? null;
}

/** "I live in Lisbon", "I'm based in Austin, Texas", "my sister lives in Rome". */
export function livesIn(c: Clause): TypedFact[] {
  if (c.verb !== 'live' && c.verb !== 'base' && c.verb !== 'stay') return [];
  if (c.verb === 'stay' && !c.progressive) return [];
  const place = placeAfter(c, ['in', 'near', 'outside']);
  if (!place) return [];
  // "I lived in Berlin for years": a home that ended.
  const past = c.past && !c.progressive;
  return factAbout(c, 'lives_in', place, `${past ? 'lived' : 'lives'} in ${place}`, {
    identity: !past && c.subject.kind === 'user',
    ended: past,
    salience: 0.85,
  });
}

/** "I moved to Lisbon in March", "we relocated to Porto", "we're moving to Oslo next month". */
export function movedTo(c: Clause, _ctx?: RuleContext): TypedFact[] {
  const settling = c.verb === 'settle';
  if (!['move', 'relocate', 'emigrate'].includes(c.verb) && !settling) return [];
  // "we moved to GitHub Actions": a change of tool, not of home (switched handles it).
  if (c.sentence.toks.some((t) => t.lemma === 'use' || t.lemma === 'migrate')) return [];
  // "settling into Austin", "settled in Leeds": a new home being made.
  const place = placeAfter(c, settling ? ['in', 'into'] : ['to']);
  if (!place) return [];
  if (c.future || (c.progressive && !c.past && !settling)) {
    // Plans are the user's own (a friend's move is news, not a lasting fact).
    if (c.subject.kind !== 'user') return [];
    return factAbout(c, 'plans', `move to ${place}`, `is moving to ${place}`, { plan: true });
  }
  const text = settling ? `is settling into ${place}` : `moved to ${place}`;
  return factAbout(c, 'lives_in', place, settling && c.past ? `settled in ${place}` : text, {
    identity: c.subject.kind === 'user',
    salience: 0.85,
  });
}

/** "I'm from Porto", "I grew up in Leeds", "my dad was born in Lagos". */
export function comesFrom(c: Clause): TypedFact[] {
  let place: string | null = null;
  if (c.verb === 'be') place = placeAfter(c, ['from']);
  else if (c.verb === 'come') place = placeAfter(c, ['from']);
  else if (c.verb === 'grow' && objectTokens(c)[0]?.norm === 'up') {
    const rest = objectTokens(c).slice(1);
    place = rest[0]?.norm === 'in' ? (placeName(rest, 1)?.text ?? null) : null;
  } else if (c.verb === 'bear') place = placeAfter(c, ['in']);
  if (!place) return [];
  return factAbout(c, 'from', place, `is from ${place}`, { salience: 0.75 });
}
