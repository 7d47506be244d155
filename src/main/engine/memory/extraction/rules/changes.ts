// Changes that supersede or retire an older fact: "I switched from coffee to green tea",
// "we moved from Jenkins to GitHub Actions", "I replaced my car with an e-bike".
// ("We no longer use X", "I used to ...", "not ... anymore" are handled by the engine: the
// clause's other rules run and their facts are marked ended.)
import type { Relation } from '../../../text/relations.ts';
import { objectTokens, type Clause } from '../clause.ts';
import { factAbout, type TypedFact } from '../fact.ts';
import { nounPhrase, type Phrase } from '../phrases.ts';
import { isDiet, isDrink, isInstrument, isVehicle } from '../vocabulary.ts';

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

/** The relation a thing belongs to, when its words say it ("tea" → drink), else null. */
export function classifyThing(p: Phrase, c: Clause): Relation | null {
  if (isDrink(p.text)) return 'drink';
  if (isVehicle(p.text)) return 'vehicle';
  if (isDiet(p.text)) return 'diet';
  if (isInstrument(p.text)) return 'instrument';
  if (
    p.proper &&
    c.subject.kind === 'user' &&
    (c.subject.plural || c.toks.some((t) => t.lemma === 'use'))
  )
    return 'tool';
  if (p.proper) return 'tool';
  return null;
}

const TEXT: Partial<Record<Relation, (x: string) => string>> = {
  drink: (x) => `drinks ${x}`,
  vehicle: (x) => `has ${x}`,
  diet: (x) => `is ${x}`,
  instrument: (x) => `plays ${x}`,
  tool: (x) => `uses ${x}`,
};

/** "I switched (from X) to Y", "we migrated from X to Y", "I replaced X with Y". */
export function switched(c: Clause): TypedFact[] {
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
  const relation = classifyThing(to, c) ?? (from ? classifyThing(from, c) : null);
  const say = relation ? TEXT[relation] : undefined;
  const out: TypedFact[] = [];
  const fromText = from ? ` (switched from ${from.text})` : '';
  out.push(
    ...factAbout(
      c,
      relation,
      to.text,
      say ? `${say(to.text)}${fromText}` : `switched to ${to.text}${fromText}`,
      {
        salience: 0.7,
      },
    ),
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
