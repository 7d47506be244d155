// Names in chat written without capitals ("my boss karen keeps ...", "just moved to leeds").
// Every rule reads a name as capitalised words (phrases.ts properName), which is how most
// people write; a writer who types everything in lower case gives the rules no name at all.
// In such a sentence, a word is read as a name where the sentence's shape says a name goes,
// and the word could not be anything else there:
// - right after a kind of person ("my bf jake", "my mum linda is ..."), before a verb, an
//   adverb, a conjunction or the end: an apposition, the way people introduce someone;
// - right after a kind of person whatever follows ("what should i get my brother tom for his
//   birthday?"), in any sentence, when word meaning puts the word among people's names;
// - after a kind of person, never an everyday word ("drove my mum home", "send my mum love":
//   a frequent word unless its meaning is mostly a name, as "james" or "mark") nor a plural
//   ("send my nan flowers");
// - right after "called" / "named" ("a greyhound called biscuit");
// - after "in" / "to" / "from" with no article, when the word vectors know it as a rare word
//   that sits among places ("moved to leeds", "from manchester"), not "to work", "in town".
import type { AnalysedSentence, Tok } from './nlp.ts';
import { frequentNameByMeaning, personByMeaning, placeByMeaning } from './meaning.ts';
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

/**
 * A word that could be a name: a noun or name by wink's reading, letters only, not a date, and
 * not a plural wink takes back to its singular ("send my mum flowers": "flowers" → "flower";
 * "james" or "agnes" stay as they are).
 */
function nameLike(t: Tok | undefined): t is Tok {
  return (
    t !== undefined &&
    (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ') &&
    (t.pos !== 'NOUN' || t.lemma === t.norm) &&
    t.ent === null &&
    /^\p{L}{2,}$/u.test(t.text) &&
    personNoun(t.norm) === null
  );
}

/**
 * The SIF weight (word-vectors.ts: frequent words weigh less) under which a word is among the
 * everyday ones, the 1,400 or so most frequent: "love", "money", "letter", "time", "home",
 * which the vectors also put near first names. Such a word is a name only when its meaning
 * puts it right among first names ("james", "david", "mark": meaning.ts
 * `frequentNameByMeaning`). Chosen on truecase.test.ts.
 */
const EVERYDAY_MAX_WEIGHT = 0.95;

/** A frequent word that is not mostly a name: "love", "home", "time"; not "james" or "mark". */
function everyday(words: WordVectors | null, word: string): boolean {
  if (!words) return false;
  const weight = words.weight(word);
  return weight > 0 && weight < EVERYDAY_MAX_WEIGHT && !frequentNameByMeaning(words, word);
}

/** "jake" after "my bf" → "Jake"; not an everyday word ("give my brother time to ..."). */
function personAt(toks: readonly Tok[], i: number, words: WordVectors | null): boolean {
  const t = toks[i];
  if (!nameLike(t) || t.pos === 'ADJ' || everyday(words, t.norm)) return false;
  const before = toks[i - 1];
  if (!before || personNoun(before.norm) === null || before.pos === 'VERB') return false;
  return endsApposition(toks[i + 1]);
}

/**
 * "tom" in "get my brother tom for his birthday", "leo" in "My son leo starts school in
 * September": a word the writer left in lower case right after a kind of person, whatever
 * follows it, when word meaning says it is a person's name. Not a noun that goes on into a
 * compound ("my daughter college fund").
 */
function relativeNameAt(toks: readonly Tok[], i: number, words: WordVectors | null): boolean {
  const t = toks[i];
  const before = toks[i - 1];
  if (!words || !nameLike(t) || t.pos === 'ADJ' || !/^\p{Ll}+$/u.test(t.text)) return false;
  if (!before || personNoun(before.norm) === null || before.pos === 'VERB') return false;
  if (toks[i + 1]?.pos === 'NOUN' || everyday(words, t.norm)) return false;
  return personByMeaning(words, t.norm);
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

/**
 * The sentence with the names a writer left uncapitalised capitalised: by the sentence's shape
 * when it has no capitals at all, after a kind of person by meaning in any sentence.
 */
export function truecase(s: AnalysedSentence, words: WordVectors | null): AnalysedSentence {
  const lower = uncased(s.toks);
  let changed = false;
  const toks = s.toks.map((t, i) => {
    if (i === 0) return t;
    const byShape =
      lower && (personAt(s.toks, i, words) || namedAt(s.toks, i) || placeAt(s.toks, i, words));
    if (byShape || relativeNameAt(s.toks, i, words)) {
      changed = true;
      return asName(t);
    }
    return t;
  });
  return changed ? { ...s, toks } : s;
}
