// Names in chat written without capitals ("my boss karen keeps ...", "just moved to leeds").
// Every rule reads a name as capitalised words (phrases.ts properName), which is how most
// people write; a writer who types everything in lower case gives the rules no name at all.
// In such a sentence, a word is read as a name where the sentence's shape says a name goes,
// and the word could not be anything else there:
// - right after a kind of person ("my bf jake", "my mum linda is ..."), before a verb, an
//   adverb, a conjunction or the end: an apposition, the way people introduce someone;
// - right after "called" / "named" ("a greyhound called biscuit");
// - after "in" / "to" / "from" with no article, when the word vectors know it as a rare word
//   that sits among places ("moved to leeds", "from manchester"), not "to work", "in town".
import type { AnalysedSentence, Tok } from './nlp.ts';
import { placeByMeaning } from './meaning.ts';
import { personNoun } from './vocabulary.ts';
import type { WordVectors } from '../../vector/word-vectors.ts';

/** Whether the writer used no capitals in a sentence beyond its first word and "I". */
export function uncased(toks: readonly Tok[]): boolean {
  return toks.every((t, i) => i === 0 || t.norm === 'i' || !/\p{Lu}/u.test(t.text));
}

/** What may follow a name introduced in apposition: a verb, an adverb, a comma, the end. */
function endsApposition(next: Tok | undefined): boolean {
  if (!next) return true;
  return ['VERB', 'AUX', 'ADV', 'PUNCT', 'CCONJ', 'PART'].includes(next.pos) || next.ent !== null;
}

/** A word that could be a name: a noun or name by wink's reading, letters only, not a date. */
function nameLike(t: Tok | undefined): t is Tok {
  return (
    t !== undefined &&
    (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ') &&
    t.ent === null &&
    /^\p{L}{2,}$/u.test(t.text) &&
    personNoun(t.norm) === null
  );
}

/** "jake" after "my bf" → "Jake". */
function personAt(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (!nameLike(t) || t.pos === 'ADJ') return false;
  const before = toks[i - 1];
  if (!before || personNoun(before.norm) === null || before.pos === 'VERB') return false;
  return endsApposition(toks[i + 1]);
}

/** "biscuit" after "called" / "named". */
function namedAt(toks: readonly Tok[], i: number): boolean {
  const before = toks[i - 1];
  return (
    nameLike(toks[i]) &&
    (before?.norm === 'called' || before?.norm === 'named') &&
    endsApposition(toks[i + 1])
  );
}

function placeAt(toks: readonly Tok[], i: number, words: WordVectors | null): boolean {
  const t = toks[i];
  const before = toks[i - 1]?.norm;
  if (!words || !nameLike(t) || t.pos === 'ADJ') return false;
  if (before !== 'in' && before !== 'to' && before !== 'from') return false;
  return placeByMeaning(words, t.norm);
}

function asName(t: Tok): Tok {
  const text = t.text.charAt(0).toUpperCase() + t.text.slice(1);
  return { ...t, text, pos: 'PROPN' };
}

/** The sentence with the names a lower-case writer left uncapitalised capitalised. */
export function truecase(s: AnalysedSentence, words: WordVectors | null): AnalysedSentence {
  if (!uncased(s.toks)) return s;
  let changed = false;
  const toks = s.toks.map((t, i) => {
    if (i === 0) return t;
    if (personAt(s.toks, i) || namedAt(s.toks, i) || placeAt(s.toks, i, words)) {
      changed = true;
      return asName(t);
    }
    return t;
  });
  return changed ? { ...s, toks } : s;
}
