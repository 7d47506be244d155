// Typing by word meaning (DESIGN §6): which relation a statement's words are about, and which
// kind of person a role noun names, from the static word vectors. Used where no specific rule
// knows the words ("I dusted off my old cello", "my head of department, Mr Okafor").
//
// Static vectors are noisy on one or two words (a product name means a rock, "garlic" sits
// near drinks), so a relation is only chosen when it wins clearly, and never a single-valued
// one: a guess must not supersede a value a specific rule read (relations.ts, facts.ts).
import type { WordVectors } from '../../vector/word-vectors.ts';
import { isSingleValued, type Relation } from '../../text/relations.ts';
import type { Tok } from './nlp.ts';
import { personNouns, type PersonRelation } from './vocabulary.ts';

/**
 * The relation score a statement must reach, and its lead over the runner-up. Chosen on our
 * own varied statements (meaning.test.ts): instruments, vehicles, injuries and pets clear it;
 * errands, chores and product names do not.
 */
export const STATEMENT_MIN_SCORE = 0.4;
export const STATEMENT_MIN_MARGIN = 0.1;

/**
 * The words of a statement that say what it is about: common words only. Names and dates are
 * left out: the vectors know "Obsidian" as a rock and "years" as an age, not what the writer
 * means by them.
 */
export function meaningText(toks: readonly Tok[]): string {
  return toks
    .filter((t) => t.ent === null && t.pos !== 'PROPN' && t.pos !== 'PUNCT' && t.pos !== 'PRON')
    .filter((t) => !/^\p{Lu}/u.test(t.text))
    .map((t) => (t.pos === 'VERB' ? t.lemma : t.norm))
    .join(' ');
}

/** The multi-valued relation a statement's words clearly point to, or null. */
export function relationByMeaning(words: WordVectors, text: string): Relation | null {
  const [top, second] = words.relationsFor(text, 0);
  if (!top || top.score < STATEMENT_MIN_SCORE) return null;
  if (second && top.score - second.score < STATEMENT_MIN_MARGIN) return null;
  return isSingleValued(top.relation) ? null : top.relation;
}

/**
 * How close a role's words must be to the nouns of a kind of person, and the lead over the
 * next kind: family words all sit near each other ("cousin" is as close to "brother" as to
 * "son"), so only a clear winner counts. Chosen on meaning.test.ts.
 */
export const ROLE_MIN_SIMILARITY = 0.5;
export const ROLE_MIN_MARGIN = 0.1;

/**
 * The kind of person a role noun names ("head of department" → manager, "director" →
 * manager), by the average over its words of the best similarity to each relation's nouns
 * (vocabulary.ts); null when no relation wins clearly.
 */
export function personRelationByMeaning(words: WordVectors, role: string): PersonRelation | null {
  const roleWords = words.contentWords(role).filter((w) => words.has(w));
  if (roleWords.length === 0) return null;
  const best = new Map<PersonRelation, number>();
  for (const w of roleWords) {
    const perRelation = new Map<PersonRelation, number>();
    for (const [noun, relation] of personNouns()) {
      if (noun.includes(' ')) continue;
      const sim = words.similarity(w, noun);
      if (sim === null) continue;
      perRelation.set(relation, Math.max(perRelation.get(relation) ?? -1, sim));
    }
    for (const [relation, sim] of perRelation) {
      best.set(relation, (best.get(relation) ?? 0) + sim / roleWords.length);
    }
  }
  const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  if (!top || top[1] < ROLE_MIN_SIMILARITY) return null;
  if (second && top[1] - second[1] < ROLE_MIN_MARGIN) return null;
  return top[0];
}

/**
 * A word is a place name when the word vectors put it nearer to named places than to kinds of
 * place by at least the margin: "leeds" and "recife" sit among cities, "work", "college",
 * "therapy" among the places everyone goes, and "python" or "excel" among neither. Named
 * places from every continent, so a city is judged by the company of cities, not of the few
 * a list happens to hold. Chosen on our own words (meaning.test.ts, truecase.test.ts).
 */
export const PLACE_MIN_SIMILARITY = 0.45;
export const PLACE_MIN_MARGIN = 0.1;
const NAMED_PLACES = (
  'london paris chicago berlin tokyo texas sydney france india brazil california scotland ' +
  'africa lagos mumbai manila jakarta lima bogota santiago lisbon warsaw krakow glasgow ' +
  'manchester dublin boston seattle toronto auckland cairo istanbul seoul osaka bangkok hanoi ' +
  'rio madrid barcelona milan munich vienna prague budapest stockholm oslo'
).split(' ');
const KINDS_OF_PLACE =
  'school office hospital home town city country shop work bed church university'.split(' ');

/** The best similarity of a word to a list, itself left out (-1: the word is unknown). */
function nearest(words: WordVectors, word: string, list: readonly string[]): number {
  let best = -1;
  for (const p of list) if (p !== word) best = Math.max(best, words.similarity(word, p) ?? -1);
  return best;
}

/**
 * Whether a word's meaning puts it among `kind` (its nearest member at least `min` similar)
 * and nearer to it than to `other` by at least `margin`; null for a word the vectors lack.
 */
function amongKind(
  words: WordVectors,
  word: string,
  kind: readonly string[],
  other: readonly string[],
  min: number,
  margin: number,
): boolean | null {
  const w = word.toLowerCase();
  if (!words.has(w)) return null;
  const near = nearest(words, w, kind);
  return near >= min && near - nearest(words, w, other) >= margin;
}

/** Whether a word (lower case) names a place by its meaning; false for unknown words. */
export function placeByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(words, word, NAMED_PLACES, KINDS_OF_PLACE, PLACE_MIN_SIMILARITY, PLACE_MIN_MARGIN) ??
    false
  );
}

/**
 * A name is a person's when the word vectors put it nearer to people's first names (from every
 * continent) than to organisations by at least the margin: "tom", "priya" are people,
 * "ubisoft", "barclays" are not. Unknown words are neither. Chosen on meaning.test.ts.
 */
export const PERSON_MIN_SIMILARITY = 0.45;
export const PERSON_MIN_MARGIN = 0.1;
const FIRST_NAMES =
  'michael mary ahmed priya wei elena olu kenji fatima carlos anna david sophie jamal'.split(' ');
const ORGANISATIONS =
  'google microsoft amazon walmart toyota siemens unilever nestle samsung tesco deloitte ikea'.split(
    ' ',
  );

/** Whether a name (one word) is a person's by its meaning; false for unknown words. */
export function personByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(words, word, FIRST_NAMES, ORGANISATIONS, PERSON_MIN_SIMILARITY, PERSON_MIN_MARGIN) ??
    false
  );
}

/**
 * A frequent word is a person's name only when word meaning puts it right among first names:
 * "james", "david", "mark" (nearest first name 0.6 or more, 0.1 nearer than organisations) are
 * names as often as words, while "love", "letter", "time" or "home", which the vectors also
 * put near names, are not. Chosen on the most frequent words of the vectors' vocabulary, where
 * the only words this close to first names are names, kinds of relative and a few words that
 * are never nouns ("later", "wrote"), and on truecase.test.ts.
 */
export const FREQUENT_NAME_MIN_SIMILARITY = 0.6;

/** Whether a frequent word (one word, lower case) is mostly a person's name by its meaning. */
export function frequentNameByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(
      words,
      word,
      FIRST_NAMES,
      ORGANISATIONS,
      FREQUENT_NAME_MIN_SIMILARITY,
      PERSON_MIN_MARGIN,
    ) ?? false
  );
}

/**
 * An activity (an -ing word) is a pastime when the word vectors put it nearer to sports and
 * pastimes than to the day's duties by at least the margin: "swimming", "rowing", "birding"
 * are pastimes, "working", "commuting", "studying" are not. A word the vectors do not know
 * ("bouldering", "journaling") is taken as a pastime: the constructions that ask already say
 * it is done for its own sake, regularly. Chosen on meaning.test.ts.
 */
export const PASTIME_MIN_SIMILARITY = 0.45;
export const PASTIME_MIN_MARGIN = 0.1;
const PASTIMES =
  'hiking swimming cycling climbing painting knitting gardening fishing yoga surfing dancing skiing'.split(
    ' ',
  );
const DUTIES = 'working commuting meeting shopping cleaning studying sleeping eating driving'.split(
  ' ',
);

/** Whether an activity ("swimming") is a pastime by meaning; true for unknown words. */
export function pastimeByMeaning(words: WordVectors, activity: string): boolean {
  return (
    amongKind(words, activity, PASTIMES, DUTIES, PASTIME_MIN_SIMILARITY, PASTIME_MIN_MARGIN) ?? true
  );
}

/**
 * A word is a language when the word vectors put it nearer to languages than to other things
 * learned (subjects, sports, instruments) by at least the margin: "korean", "tagalog", "welsh"
 * are languages, "python", "chess", "milk" are not. Unknown words are not. Chosen on our own
 * words (rules/interests.test.ts).
 */
export const LANGUAGE_MIN_SIMILARITY = 0.45;
export const LANGUAGE_MIN_MARGIN = 0.15;
const LANGUAGES =
  'spanish french german mandarin arabic hindi portuguese russian japanese swahili english italian'.split(
    ' ',
  );
const OTHER_LEARNING =
  'math chemistry guitar coding history physics cooking football food music painting tennis'.split(
    ' ',
  );

/** Whether a word (one word, any case) names a language by its meaning. */
export function languageByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(
      words,
      word,
      LANGUAGES,
      OTHER_LEARNING,
      LANGUAGE_MIN_SIMILARITY,
      LANGUAGE_MIN_MARGIN,
    ) ?? false
  );
}

/**
 * A word is a make or model of vehicle when the word vectors put it nearer to car and
 * motorbike makes than to other products and things people own by at least the margin:
 * "subaru", "corolla", "yamaha" are vehicles, "iphone", "model", "laptop" are not. Unknown
 * words are not. Chosen on our own words (rules/routine.test.ts).
 */
export const VEHICLE_MIN_SIMILARITY = 0.5;
export const VEHICLE_MIN_MARGIN = 0.15;
const VEHICLE_MAKES =
  'toyota honda ford bmw volkswagen nissan hyundai volvo mazda peugeot sedan hatchback motorcycle'.split(
    ' ',
  );
const OTHER_PRODUCTS =
  'phone computer laptop house product system version design camera watch software company'.split(
    ' ',
  );

/** Whether a word (one word, any case) names a make or model of vehicle by its meaning. */
export function vehicleByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(
      words,
      word,
      VEHICLE_MAKES,
      OTHER_PRODUCTS,
      VEHICLE_MIN_SIMILARITY,
      VEHICLE_MIN_MARGIN,
    ) ?? false
  );
}

/**
 * What something "tastes like" says the writer finds it vile when the word vectors put the
 * comparison nearer to things nobody eats than to food by at least the margin: "soap",
 * "feet", "metal" are inedible, "chicken", "coffee", "home" are not. Chosen on our own words
 * (rules/interests.test.ts).
 */
export const INEDIBLE_MIN_SIMILARITY = 0.35;
export const INEDIBLE_MIN_MARGIN = 0.1;
const INEDIBLE = 'dirt garbage vomit rubber sweat poison mud cardboard'.split(' ');
const FOOD = 'chocolate bread honey cheese chicken candy flowers home heaven'.split(' ');

/** Whether a word names something nobody would want to eat, by its meaning. */
export function inedibleByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(words, word, INEDIBLE, FOOD, INEDIBLE_MIN_SIMILARITY, INEDIBLE_MIN_MARGIN) ?? false
  );
}

/**
 * A word is software when the word vectors put it nearer to programs, languages and systems
 * than to everyday things by at least the margin: "excel", "emacs", "django", "aws", "ubuntu"
 * are software, "notebook", "pencil", "inhaler", "coffee", "spanish" are not. Product names
 * sit weakly even among their own kind in static vectors (an editor or a cloud is at 0.2 to
 * 0.4 from "software"), so the least similarity is low and the margin does the work. Unknown
 * words ("dbt", "vscode", "jira": a 100k-word vocabulary lacks most product names) are not:
 * the callers decide where a word nobody knows may still be a tool's name. Chosen on our own
 * words (meaning.test.ts, rules/tech.test.ts).
 */
export const SOFTWARE_MIN_SIMILARITY = 0.2;
export const SOFTWARE_MIN_MARGIN = 0.15;
const SOFTWARE =
  'software linux python javascript photoshop excel database windows android browser spreadsheet plugin'.split(
    ' ',
  );
const EVERYDAY_THINGS =
  'food music house team office book car paper money family medication clothes'.split(' ');

/** Whether a word (one word, lower case) names software by its meaning. */
export function softwareByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(
      words,
      word,
      SOFTWARE,
      EVERYDAY_THINGS,
      SOFTWARE_MIN_SIMILARITY,
      SOFTWARE_MIN_MARGIN,
    ) ?? false
  );
}

/**
 * A word names a part of the body when the word vectors put it nearer to joints, limbs and
 * ligaments than to the things people break or hurt in other senses (a phone, a record, a
 * heart in love) by at least the margin: "knee", "acl", "hamstring", "collarbone" are body
 * parts, "phone", "screen", "heart", "promise" are not. Unknown words are not. Chosen on our
 * own words (rules/health.test.ts).
 */
export const BODY_PART_MIN_SIMILARITY = 0.5;
export const BODY_PART_MIN_MARGIN = 0.15;
const BODY_PARTS =
  'knee ankle wrist shoulder hip elbow neck ligament spine finger hamstring leg'.split(' ');
const NOT_BODY_PARTS =
  'phone laptop screen car glasses window record promise love soul feelings rules'.split(' ');

/** Whether a word (one word, any case) names a part of the body by its meaning. */
export function bodyPartByMeaning(words: WordVectors, word: string): boolean {
  return (
    amongKind(
      words,
      word,
      BODY_PARTS,
      NOT_BODY_PARTS,
      BODY_PART_MIN_SIMILARITY,
      BODY_PART_MIN_MARGIN,
    ) ?? false
  );
}

/**
 * A word names a medicine when the word vectors put it nearer to medicines than to the other
 * things someone is "on" (a diet, a holiday, a team, a call) by at least the margin: "insulin",
 * "prozac", "antidepressants", "steroids" are medicines, "keto", "holiday", "budget" are not.
 * Most drug names are too rare for the vectors; one they lack is a medicine when it ends in a
 * stem of the international nonproprietary names (WHO INN: "sertraline", "metformin",
 * "lisinopril", "omeprazole"). Chosen on our own words (rules/health.test.ts).
 */
export const MEDICINE_MIN_SIMILARITY = 0.5;
export const MEDICINE_MIN_MARGIN = 0.1;
const MEDICINES =
  'medication insulin antidepressants antibiotics ibuprofen paracetamol aspirin steroids prozac statins'.split(
    ' ',
  );
const NOT_MEDICINES = 'diet holiday budget team call phone break leave track course'.split(' ');
/** Common INN stems (https://www.who.int/teams/health-product-and-policy-standards/inn). */
const INN_STEM =
  /(?:aline|xetine|oxetine|formin|pril|sartan|olol|statin|prazole|oxacin|cillin|mycin|azepam|triptan|tidine|gliptin|glutide|afil|mab|pine|zolam|profen|amine|oxone|done|semide|thiazide)$/;

/** Whether a word (one word, any case) names a medicine, by its meaning or its INN stem. */
export function medicineByMeaning(words: WordVectors, word: string): boolean {
  const w = word.toLowerCase();
  const known = amongKind(
    words,
    w,
    MEDICINES,
    NOT_MEDICINES,
    MEDICINE_MIN_SIMILARITY,
    MEDICINE_MIN_MARGIN,
  );
  return known ?? (w.length > 5 && INN_STEM.test(w));
}
