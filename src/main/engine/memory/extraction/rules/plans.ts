// Plans and trips, with their dates.
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type TypedFact } from '../fact.ts';
import { nounPhrase, placeName, predicateText } from '../phrases.ts';

const TRAVEL_VERBS = new Set([
  'go',
  'fly',
  'travel',
  'head',
  'drive',
  'visit',
  'be',
  'take',
  'spend',
  'return',
]);
const TRIP_NOUNS = new Set([
  'trip',
  'vacation',
  'holiday',
  'holidays',
  'getaway',
  'honeymoon',
  'cruise',
  'flight',
  'visit',
]);

/** Times of year people travel in ("half term", "over Easter", "for the weekend"). */
const HOLIDAYS = new Set([
  'easter',
  'christmas',
  'summer',
  'winter',
  'weekend',
  'term',
  'break',
  'thanksgiving',
  'holidays',
]);

/** The destination of a trip in this clause ("to Japan", "in Berlin", "visit Kyoto"), or null. */
function destination(c: Clause): { place: string; trip: string | null } | null {
  const rest = objectTokens(c);
  if (c.verb === 'visit') {
    const p = placeName(rest, 0);
    return p ? { place: p.text, trip: null } : null;
  }
  // "We're doing Lisbon over Easter": a place "done" in a holiday is a trip.
  if (c.verb === 'do') {
    const holiday = c.toks.some((t) => TRIP_NOUNS.has(t.norm) || HOLIDAYS.has(t.norm));
    const p = holiday ? placeName(rest, 0) : null;
    return p ? { place: p.text, trip: null } : null;
  }
  // "take a trip to Peru", "have a vacation in Crete"
  const np = nounPhrase(rest, 0);
  const trip = np && TRIP_NOUNS.has(np.head) ? np.text : null;
  const from = trip ? np!.end : 0;
  for (let i = from; i < Math.min(rest.length, from + 3); i++) {
    const w = rest[i]!.norm;
    if (
      w === 'to' ||
      (w === 'in' && (c.verb === 'be' || c.verb === 'spend' || trip)) ||
      (w === 'for' && trip)
    ) {
      const p = placeName(rest, i + 1);
      if (p) return { place: p.text, trip };
    }
  }
  return null;
}

/** "I'm flying to Tokyo on 14 June", "we went to Crete last summer", "I'll be in Berlin in May". */
export function travel(c: Clause): TypedFact[] {
  if (c.negated) return [];
  const trip =
    TRAVEL_VERBS.has(c.verb) ||
    c.verb === 'have' ||
    c.verb === 'plan' ||
    c.verb === 'book' ||
    c.verb === 'do';
  if (!trip) return [];
  const d = destination(c);
  if (!d) return [];
  const upcoming = c.future || (c.progressive && !c.past);
  // A past "I was in Berlin" is a trip only with a date ("last May").
  const dated = c.toks.some((t) => t.ent === 'DATE');
  if (!upcoming && !(c.past && dated)) return [];
  if (upcoming && c.subject.kind !== 'user') return [];
  const what = d.trip ? `${d.trip} to ${d.place}` : `a trip to ${d.place}`;
  const text = upcoming ? `is planning ${what}` : `went on ${what}`;
  return factAbout(c, 'travel', d.place, text.replace('planning a trip', 'planning a trip'), {
    salience: 0.65,
    plan: upcoming,
  });
}

const APPOINTMENTS = new Set([
  'appointment',
  'interview',
  'exam',
  'surgery',
  'meeting',
  'wedding',
  'deadline',
  'recital',
  'concert',
  'game',
  'match',
  'race',
  'marathon',
  'conference',
  'presentation',
  'checkup',
  'check-up',
  'party',
  'birthday',
]);

/** Words before the verb that make a future an intention: "plan to", "going to", "decided to". */
const INTENT_WORDS = new Set(['plan', 'intend', 'aim', 'hope', 'decide', 'going', 'gonna']);

/** "I'm going to repaint the kitchen next month", "I plan to run a marathon", "I have a job interview on Friday". */
export function plans(c: Clause): TypedFact[] {
  if (c.negated || c.verbAt < 0) return [];
  const rest = objectTokens(c);
  if (c.verb === 'have' || c.verb === 'get') {
    const np = nounPhrase(rest, 0);
    const dated = c.toks.some((t) => t.ent === 'DATE' || t.ent === 'TIME');
    if (!np || np.none || !APPOINTMENTS.has(np.head) || !dated) return [];
    return factAbout(
      c,
      'plans',
      np.text,
      `has ${np.text.match(/^[aeiou]/i) ? 'an' : 'a'} ${np.text}`,
      {
        salience: 0.6,
        plan: true,
      },
    );
  }
  if (!c.future) return [];
  if (c.verb === 'be') return [];
  // "I'll do the list comprehension", "I'll make soup after": a bare "will" narrates the next
  // step of the task at hand. A plan says so ("plan to", "going to", "decided to") or has a date.
  const before = c.toks.slice(0, c.verbAt);
  const intends = before.some((t) => INTENT_WORDS.has(t.lemma) || INTENT_WORDS.has(t.norm));
  const dated = c.toks.some((t) => t.ent === 'DATE');
  const verbTok = c.toks[c.verbAt]!;
  const progressive = verbTok.norm.endsWith('ing') && verbTok.norm !== c.verb;
  if (!intends && !dated && !progressive) return [];
  // The verb and what follows it: "repaint the kitchen next month"
  // Without the date words: the date is written once, by the engine.
  const undated = {
    ...c,
    subject: { kind: 'other' } as const,
    toks: c.toks.filter(
      (t, k) => t.ent !== 'DATE' && !(t.pos === 'ADP' && c.toks[k + 1]?.ent === 'DATE'),
    ),
  };
  const doing = predicateText(undated, undated.toks.indexOf(c.toks[c.verbAt]!));
  if (doing.split(' ').length < 2) return [];
  // "We decided to move the servers": a decision, also kept as a plan.
  const decided = c.toks.slice(0, c.verbAt).some((t) => t.lemma === 'decide');
  // "I'll be teaching at St Aidan's": a future progressive reads "will be teaching".
  const text = progressive ? `will be ${doing}` : `${decided ? 'decided' : 'plans'} to ${doing}`;
  return factAbout(c, 'plans', doing, text, {
    salience: decided ? 0.7 : 0.6,
    plan: true,
  }).map((f) => ({ ...f, decision: decided }));
}
