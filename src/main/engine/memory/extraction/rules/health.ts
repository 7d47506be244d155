// Diet, allergies and health constraints.
import { objectTokens, writerSpeaks, type Clause } from '../clause.ts';
import { factAbout, userFact, type RuleContext, type TypedFact } from '../fact.ts';
import { bodyPartByMeaning, medicineByMeaning } from '../meaning.ts';
import type { Tok } from '../nlp.ts';
import { indexOfWord, joinTokens, nounList, nounPhrase, predicateText } from '../phrases.ts';
import { isCondition, isConditionAdjective, isDiet, isDietFood } from '../vocabulary.ts';

/** Verbs a diet follows: being it, going or eating it, and keeping to it. */
const KEEPING: Record<string, string> = {
  keep: 'keeps',
  stick: 'sticks with',
  stay: 'stays',
  remain: 'remains',
};
const DIET_VERBS = new Set(['be', 'go', 'become', 'eat', 'follow', 'do', ...Object.keys(KEEPING)]);
/** Words between the verb and the diet ("on a", "strictly", "with", "to"). */
const DIET_LEAD = new Set([
  'a',
  'an',
  'on',
  'with',
  'to',
  'strictly',
  'mostly',
  'fully',
  'completely',
]);

/** "I'm vegetarian", "I'm on a keto diet", "I eat vegan", "we keep halal", "I don't eat meat". */
export function diet(c: Clause): TypedFact[] {
  if (c.subject.kind === 'relative' && c.subject.relation === 'pet') return [];
  const rest = objectTokens(c);
  if (DIET_VERBS.has(c.verb)) {
    // "vegetarian", "a vegan", "on a keto diet", "gluten-free", "(sticking) with keto"
    let i = 0;
    // "I'm not vegetarian anymore", "I'm no longer vegan": the clause is marked ended, the
    // diet follows the "not" or "no longer".
    if (c.ended && rest[0]?.norm === 'not') i++;
    else if (c.ended && rest[0]?.norm === 'no' && rest[1]?.norm === 'longer') i += 2;
    while (rest[i] && DIET_LEAD.has(rest[i]!.norm)) i++;
    const word = joinTokens(rest.slice(i, rest[i + 1]?.norm === '-' ? i + 3 : i + 1)).toLowerCase();
    // "I keep a keto cookbook": the diet word must be the thing kept, not describe it.
    const describes = rest[i + 1]?.pos === 'NOUN' && rest[i + 1]!.norm !== 'diet';
    const keeping = Object.hasOwn(KEEPING, c.verb) ? KEEPING[c.verb] : undefined;
    if (isDiet(word) && !c.negated && !(keeping && describes)) {
      // "We keep halal", "sticking with keto", "staying vegan": keeping to a diet is having it.
      const verb = keeping ?? (c.verb === 'eat' ? 'eats' : c.verb === 'do' ? 'does' : 'is');
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

/** What someone with a severe allergy carries: adrenaline and its auto-injectors. */
const ALLERGY_REMEDIES = new Set([
  'epipen',
  'epipens',
  'epi-pen',
  'adrenaline',
  'epinephrine',
  'auto-injector',
  'autoinjector',
  'jext',
  'anapen',
]);

/**
 * "carried an EpiPen since I was 5 because of peanuts", "I carry adrenaline for bee stings":
 * an adrenaline auto-injector is carried for an allergy, and what it is carried for (later in
 * the sentence, "because of" or "for") is the allergen.
 */
export function allergyRemedy(c: Clause): TypedFact[] {
  if (c.negated || !['carry', 'have', 'need', 'keep', 'get'].includes(c.verb)) return [];
  const rest = objectTokens(c);
  const np = nounPhrase(rest, 0);
  const device = np ? joinTokens(rest.slice(np.end - 1, np.end)).toLowerCase() : '';
  if (!np || np.none || !ALLERGY_REMEDIES.has(device)) return [];
  const toks = c.sentence.toks;
  const after = toks.indexOf(rest[np.end - 1]!) + 1;
  for (let i = after; i < toks.length - 1; i++) {
    const t = toks[i]!;
    const cause =
      t.norm === 'because' && toks[i + 1]?.norm === 'of' ? i + 2 : t.norm === 'for' ? i + 1 : -1;
    if (cause < 0) continue;
    const allergen = nounPhrase(toks, cause);
    // "for years", "for the record": a time or an aside, not an allergen.
    if (!allergen || allergen.none || toks[cause]!.ent !== null) return [];
    const what = allergen.text.replace(/^their /, '').replace(/ allerg(?:y|ies)$/, '');
    return factAbout(c, 'allergy', what, `is allergic to ${what} (carries ${np.text})`, {
      salience: 0.85,
    });
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
  // "I'm type 1 diabetic", "my son is autistic", "I'm coeliac": a condition as an adjective.
  const complement = conditionComplement(c);
  if (complement !== null) {
    return factAbout(c, 'health', complement, `is ${complement}`, { salience: 0.85 });
  }
  return [];
}

const COPULA = new Set(['am', 'is', 'are', 'was', 'were', "'m", "'s", "'re", 'be', 'been']);
const COPULA_ADVERBS = new Set(['also', 'still', 'now', 'actually', 'both']);

/**
 * The condition adjective after the subject's "am"/"is" ("type 1 diabetic", "deaf"), read from
 * the words themselves: wink tags "type" and "deaf" there as verbs, so the clause's verb is no
 * guide. Null for anyone but a person, a negation or no such adjective.
 */
function conditionComplement(c: Clause): string | null {
  if (c.negated || c.hypothetical || c.subject.kind === 'thing') return null;
  let i = c.subjectEnd;
  if (!COPULA.has(c.toks[i]?.norm ?? '')) return null;
  while (COPULA.has(c.toks[i]?.norm ?? '') || COPULA_ADVERBS.has(c.toks[i]?.norm ?? '')) i++;
  const typed = c.toks[i]?.norm === 'type' && c.toks[i + 1]?.pos === 'NUM' ? 2 : 0;
  const word = c.toks[i + typed];
  if (!word || !isConditionAdjective(word.norm)) return null;
  return joinTokens(c.toks.slice(i, i + typed + 1)).toLowerCase();
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

/** Possessives of someone else: "her diagnosis" is not the writer's. */
const OTHERS = new Set(['his', 'her', 'their', 'your', "'s"]);
/** Words before "diagnosis" that say nothing of the condition. */
const EMPTY_DIAGNOSIS = new Set(['new', 'official', 'recent', 'final', 'initial', 'formal']);

/**
 * "Since the type 2 diagnosis in March", "after my ADHD diagnosis": the words naming a
 * diagnosis are the writer's condition, when the writer speaks of themselves in the sentence
 * and the diagnosis is not someone else's ("her diagnosis", "Tom's diagnosis").
 */
export function diagnosisNamed(c: Clause): TypedFact[] {
  const toks = c.toks;
  const at = toks.findIndex((t) => t.norm === 'diagnosis');
  if (at < 1) return [];
  let from = at;
  while (from > 0 && ['NOUN', 'PROPN', 'NUM', 'ADJ'].includes(toks[from - 1]!.pos)) from--;
  const owner = toks[from - 1];
  if (owner && OTHERS.has(owner.norm)) return [];
  const words = toks.slice(from, at).filter((t) => !EMPTY_DIAGNOSIS.has(t.norm));
  if (words.length === 0 || !writerSpeaks(c.sentence)) return [];
  const condition = joinTokens(words);
  return userFact('health', condition, `User was diagnosed with ${condition}`, {
    salience: 0.85,
  }).map((f) => ({ ...f, timeless: true }));
}

/**
 * "migraine day again", "bad back day": a message that opens with a condition's day is the
 * writer's condition, said without a verb.
 */
export function conditionDay(c: Clause): TypedFact[] {
  if (c.toks[0] !== c.sentence.toks[0]) return [];
  let end = 0;
  // "migraine", "bad back" (wink reads "back" as an adverb): a few words before "day".
  while (end < 3 && c.toks[end] && ['NOUN', 'ADJ', 'ADV', 'PROPN'].includes(c.toks[end]!.pos)) {
    if (c.toks[end]!.norm === 'day') break;
    end++;
  }
  if (end === 0 || c.toks[end]?.norm !== 'day') return [];
  const condition = joinTokens(c.toks.slice(0, end)).toLowerCase();
  // "migraine day for my mum": someone else's day.
  const forSomeone = c.toks[end + 1]?.norm === 'for' || c.toks[end + 1]?.norm === 'with';
  if (!isCondition(condition) || forSomeone) return [];
  return userFact('health', condition, `User has ${condition} days`, { salience: 0.7 });
}

/** What may stand before a diet said without a verb: "so", a comma, "officially". */
const DIET_NOW_LEAD = new Set(['so', ',', 'and', 'officially', 'basically', 'fully', 'mostly']);

/**
 * "so pescatarian now I guess", "officially vegan now": a diet word and "now" with no verb of
 * its own, after a connector, is the writer's diet ("she's vegan now" is someone else's).
 */
export function dietNow(c: Clause): TypedFact[] {
  const toks = c.toks;
  for (let i = 0; i < toks.length - 1; i++) {
    const t = toks[i]!;
    if (!isDiet(t.norm) || toks[i + 1]!.norm !== 'now') continue;
    const prev = toks[i - 1];
    if (prev !== undefined && !DIET_NOW_LEAD.has(prev.norm)) continue;
    if (!writerSpeaks(c.sentence)) return [];
    return userFact('diet', t.norm, `User is ${t.norm} now`, { salience: 0.8 });
  }
  return [];
}

/** Verbs of hurting a part of the body: "tore my ACL", "sprained my ankle", "did my knee in". */
const INJURING = new Set([
  'tear',
  'break',
  'sprain',
  'injure',
  'hurt',
  'pull',
  'dislocate',
  'fracture',
  'twist',
  'strain',
  'rupture',
  'damage',
  'bruise',
  'blow',
]);
/** The possessive that makes the body part the subject's own ("I tore my", "my son broke his"). */
const OWN_BODY: Record<string, readonly string[]> = {
  user: ['my'],
  relative: ['his', 'her', 'their'],
};

/**
 * "I tore my ACL skiing", "sprained my left ankle", "my son broke his wrist": an injury to the
 * subject's own body is a health fact. The body part is read by word meaning (meaning.ts), so
 * "broke my phone", "hurt my feelings" or "broke my heart" are not injuries.
 */
export function injury(c: Clause, ctx: RuleContext): TypedFact[] {
  if (!ctx.words || c.negated || !INJURING.has(c.verb)) return [];
  const rest = objectTokens(c);
  // "blew out my knee": the particle before the body part.
  const from = c.verb === 'blow' && rest[0]?.norm === 'out' ? 1 : 0;
  if (!(OWN_BODY[c.subject.kind] ?? []).includes(rest[from]?.norm ?? '')) return [];
  const part = bodyPartAt(rest, from + 1, ctx.words);
  if (part === null) return [];
  const verb = c.toks[c.verbAt]!.text.toLowerCase();
  return factAbout(
    c,
    'health',
    part,
    `${verb} ${rest[from]!.norm === 'my' ? 'their' : rest[from]!.norm} ${part}`,
    {
      salience: 0.8,
    },
  );
}

/** "left ACL", "right knee": up to three words from `from` that end in a part of the body. */
function bodyPartAt(
  toks: readonly Tok[],
  from: number,
  words: NonNullable<RuleContext['words']>,
): string | null {
  let found = -1;
  for (let k = from; k < Math.min(toks.length, from + 3); k++) {
    const t = toks[k]!;
    if (t.pos !== 'NOUN' && t.pos !== 'ADJ' && t.pos !== 'PROPN') break;
    if (bodyPartByMeaning(words, t.norm)) found = k;
  }
  return found < 0 ? null : joinTokens(toks.slice(from, found + 1));
}

/** Words before a medicine: "on the pill", "taking my insulin". */
const MEDICINE_LEAD = new Set(['the', 'my', 'some']);

/**
 * "I'm on sertraline", "I take metformin and lisinopril", "I've been on antidepressants since
 * May": a medicine the subject is on or takes (medicine by meaning or by its INN stem,
 * meaning.ts). Not "on a diet", "on holiday", "take the train".
 */
export function medication(c: Clause, ctx: RuleContext): TypedFact[] {
  if (!ctx.words || c.negated || c.subject.kind === 'thing' || c.subject.kind === 'possession')
    return [];
  const rest = objectTokens(c);
  let from: number;
  if (c.verb === 'be' && rest[0]?.norm === 'on') from = 1;
  else if (c.verb === 'take') from = 0;
  else return [];
  while (rest[from] && MEDICINE_LEAD.has(rest[from]!.norm)) from++;
  // "on a diet", "take a break": one of a kind of thing, not a medicine's name.
  if (rest[from]?.norm === 'a' || rest[from]?.norm === 'an') return [];
  const words = ctx.words;
  const medicines = nounList(rest, from).filter(
    (np) => !np.text.includes(' ') && medicineByMeaning(words, np.head),
  );
  const said = c.verb === 'take' ? 'takes' : 'is on';
  return medicines.flatMap((np) =>
    factAbout(c, 'health', np.text, `${said} ${np.text}`, { salience: 0.8 }),
  );
}

/** Words that open a clause before a bare allergy ("so", "also", "and"). */
const ALLERGY_LEAD = new Set(['so', 'also', 'and', 'but', 'plus', 'btw', 'fyi', 'ok', ',', '-']);

/**
 * "severe peanut allergy here so I check every label", "with my shellfish allergy I never
 * order paella": an allergy named without "I have" is the writer's when it is theirs ("my")
 * or opens the clause with no verb of its own. Not someone else's ("her nut allergy", "my
 * son's peanut allergy", "cooking for a friend with a nut allergy").
 */
export function allergyNamed(c: Clause): TypedFact[] {
  const toks = c.toks;
  const at = toks.findIndex((t) => t.norm === 'allergy' || t.norm === 'allergies');
  if (at < 1) return [];
  let group = at;
  while (group > 0 && ['NOUN', 'PROPN', 'ADJ'].includes(toks[group - 1]!.pos)) group--;
  // "severe", "bad": words of degree say nothing of the allergen.
  let from = group;
  while (from < at && toks[from]!.pos === 'ADJ') from++;
  if (from === at) return [];
  // "my son's peanut allergy": the word before is "'s", not "my".
  const owned = toks[group - 1]?.norm === 'my';
  const opens =
    toks.slice(0, group).every((t) => ALLERGY_LEAD.has(t.norm) || t.pos === 'INTJ') &&
    (c.verbAt < 0 || c.verbAt > at);
  if (!owned && !opens) return [];
  const what = joinTokens(toks.slice(from, at)).toLowerCase();
  return userFact('allergy', what, `User has a ${what} allergy`, { salience: 0.85 }).map((f) => ({
    ...f,
    timeless: true,
  }));
}
