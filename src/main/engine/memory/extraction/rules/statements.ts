// The general rule: a statement the writer makes about themselves that no specific rule read
// ("I keep all my notes in Obsidian", "dusted off my old cello", "the physio says my left
// knee needs proper rest") becomes a fact in the writer's own words, third person, typed by
// word meaning (meaning.ts) when its words clearly point to a relation.
//
// What makes it worth remembering without a relation: a name ("Obsidian", "Baltic Robotics",
// "The Staircase"). A statement with neither a clear relation nor a name ("finished
// unpacking the last box", "stuck in traffic") is passing news and stays out.
import { objectTokens, type Clause } from '../clause.ts';
import type { RuleContext, TypedFact } from '../fact.ts';
import { meaningText, relationByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { joinTokens, nounPhrase, predicateText } from '../phrases.ts';
import { isHealthProfessional, personNoun } from '../vocabulary.ts';

/**
 * Verbs whose object is not a fact about the writer: saying, thinking, wanting, trying and
 * asking ("I think it's fine", "I want to know").
 */
const NOT_STATING = new Set([
  'say',
  'tell',
  'think',
  'know',
  'believe',
  'guess',
  'wonder',
  'hope',
  'wish',
  'want',
  'try',
  'ask',
  'feel',
  'mean',
  'let',
  'see',
  'look',
  'seem',
  'get',
  'go',
  'make',
  'take',
  'put',
  'come',
  'thank',
  'help',
  'like',
  'love',
  'hate',
]);

/** A capitalised word the tagger reads as a name or noun ("Obsidian"; not "OK", "I"). */
const isNameWord = (t: Tok | undefined) =>
  t !== undefined &&
  /^\p{Lu}/u.test(t.text) &&
  t.ent === null &&
  t.norm !== 'i' &&
  (t.pos === 'PROPN' || t.pos === 'NOUN' || t.pos === 'X');

/** A name in the statement: capitalised words that are not a date, after the verb. */
function nameIn(toks: readonly Tok[]): string | null {
  for (let i = 0; i < toks.length; i++) {
    if (!isNameWord(toks[i])) continue;
    let j = i;
    while (isNameWord(toks[j])) j++;
    return joinTokens(toks.slice(i, j));
  }
  return null;
}

/** Words that give a place in a row ("the middle child", "the only girl"). */
const PLACE_WORDS = new Set(['first', 'last', 'middle', 'only', 'second', 'third']);

/** "one", "second", "eldest", "middle": a word that gives a place or a share among others. */
function placeWord(t: Tok): boolean {
  if (t.pos === 'NUM' || t.ent === 'ORDINAL' || PLACE_WORDS.has(t.norm)) return true;
  // a superlative: "youngest" (lemma "young"), "eldest" (wink tags it a noun)
  return /.est$/.test(t.norm) && (t.lemma !== t.norm || t.pos === 'NOUN');
}

/**
 * "one of three kids", "the youngest of three", "the middle child of five", "the eldest of my
 * siblings": the writer's place among a group counted or named by a kind of person. It says
 * how many there are and little else, so it is not kept unless someone is named with it.
 * Not "one of the founders of Acme": a role, not a place in a family.
 */
function placeAmong(rest: readonly Tok[]): boolean {
  let i = rest[0]?.pos === 'DET' ? 1 : 0;
  if (!rest[i] || !placeWord(rest[i]!)) return false;
  const of = rest.findIndex((t, k) => k > i && t.norm === 'of');
  if (of < 0 || of > i + 2) return false;
  i = of + 1;
  while (rest[i] && (rest[i]!.pos === 'DET' || rest[i]!.norm === 'my' || rest[i]!.norm === 'our'))
    i++;
  const group = rest[i];
  return group !== undefined && (group.pos === 'NUM' || personNoun(group.norm) !== null);
}

/** What the statement is about: its name, else its first noun phrase. */
function objectOf(rest: readonly Tok[]): string | null {
  const name = nameIn(rest);
  if (name) return name;
  for (let i = 0; i < rest.length; i++) {
    const np = nounPhrase(rest, i);
    if (np && !np.none) return np.text.replace(/^(?:their|them) /, '');
  }
  return null;
}

/** Who the fact is about and how it starts: "User", "User's left knee". */
function subjectPhrase(c: Clause): string | null {
  if (c.subject.kind === 'user') return 'User';
  // The user's own things only when a professional said it ("my blood pressure is high").
  if (c.subject.kind === 'possession' && c.attestedBy) return `User's ${c.subject.noun}`;
  return null;
}

/** "I keep all my notes in Obsidian" → "User keeps all their notes in Obsidian". */
export function plainStatement(c: Clause, ctx: RuleContext): TypedFact[] {
  const words = ctx.words;
  if (!words || c.verbAt < 0 || c.negated || c.future || c.ended) return [];
  const subject = subjectPhrase(c);
  if (!subject || NOT_STATING.has(c.verb)) return [];
  const rest = objectTokens(c);
  // "I was at Tesco", "I'm in Leeds this week": where someone is for now, not a fact.
  if (c.verb === 'be' && !c.attestedBy && rest[0]?.pos === 'ADP') return [];
  // "I'm one of three kids", "I'm the youngest of three": a place in the family, no one named.
  if (c.verb === 'be' && placeAmong(rest) && !nameIn(rest)) return [];
  const owned = c.subject.kind === 'possession' ? c.subject.noun : null;
  // "my blood pressure is high": the thing of the user's is what the fact is about.
  const object = owned ?? objectOf(rest);
  if (!object || rest.every((t) => t.pos === 'PUNCT')) return [];
  const meaning = meaningText(c.toks.slice(c.verbAt));
  let relation = relationByMeaning(words, meaning);
  // What a doctor or physio says about the user's body is about their health.
  if (!relation && c.attestedBy && isHealthProfessional(c.attestedBy)) relation = 'health';
  if (!relation && !nameIn(rest)) return [];
  const written = predicateText(c);
  // "Dusted off my old cello": the verb opened the message, capitalised.
  const predicate = c.implicitSubject
    ? written.charAt(0).toLowerCase() + written.slice(1)
    : written;
  // "Settling into Austin": the left-out "I'm" comes back as "is".
  const progressive = c.implicitSubject && c.progressive ? 'is ' : '';
  const said = c.attestedBy ? ` (their ${c.attestedBy} says so)` : '';
  return [
    {
      subject: 'user',
      relation,
      object,
      text: `${subject} ${progressive}${predicate}${said}`,
      validFrom: null,
      ended: false,
      salience: relation ? 0.6 : 0.5,
      identity: false,
      plan: false,
    },
  ];
}
