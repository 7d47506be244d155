// Everyday English words the rules recognise: kinds of people, animals, drinks, vehicles,
// instruments, diets, conditions and jobs. General vocabulary, not fitted to any data set:
// a word missing here only means a fact stays free text or is not extracted.
import type { Relation } from '../../text/relations.ts';

export type PersonRelation = Extract<
  Relation,
  'manager' | 'coworker' | 'partner' | 'child' | 'parent' | 'sibling' | 'friend' | 'pet'
>;

const PEOPLE: Record<string, PersonRelation> = {
  manager: 'manager',
  boss: 'manager',
  supervisor: 'manager',
  'team lead': 'manager',
  lead: 'manager',
  'team leader': 'manager',
  'shift lead': 'manager',
  'shift leader': 'manager',
  coworker: 'coworker',
  'co-worker': 'coworker',
  colleague: 'coworker',
  teammate: 'coworker',
  wife: 'partner',
  husband: 'partner',
  partner: 'partner',
  spouse: 'partner',
  girlfriend: 'partner',
  boyfriend: 'partner',
  fiance: 'partner',
  fiancee: 'partner',
  fiancé: 'partner',
  fiancée: 'partner',
  son: 'child',
  daughter: 'child',
  kid: 'child',
  kiddo: 'child',
  // "my boy", "our girl", "my lad": a parent's words for a son or daughter.
  boy: 'child',
  girl: 'child',
  lad: 'child',
  child: 'child',
  baby: 'child',
  toddler: 'child',
  // What parents call their children across English: Scots "wean", "bairn"; Australian and
  // New Zealand "littlie"; British "nipper", "sprog"; "tot", "kiddie" anywhere.
  wean: 'child',
  bairn: 'child',
  littlie: 'child',
  littlun: 'child',
  nipper: 'child',
  sprog: 'child',
  tot: 'child',
  kiddie: 'child',
  mom: 'parent',
  mum: 'parent',
  mother: 'parent',
  dad: 'parent',
  father: 'parent',
  parent: 'parent',
  stepmom: 'parent',
  stepdad: 'parent',
  stepmum: 'parent',
  stepmother: 'parent',
  stepfather: 'parent',
  brother: 'sibling',
  sister: 'sibling',
  sibling: 'sibling',
  twin: 'sibling',
  friend: 'friend',
  'best friend': 'friend',
  buddy: 'friend',
  pal: 'friend',
  mate: 'friend',
  'best mate': 'friend',
  bestie: 'friend',
  hubby: 'partner',
  hubs: 'partner',
  wifey: 'partner',
  fella: 'partner',
  'other half': 'partner',
  'better half': 'partner',
  'significant other': 'partner',
  // chat forms
  bf: 'partner',
  gf: 'partner',
  missus: 'partner',
  sis: 'sibling',
  bro: 'sibling',
  mam: 'parent',
  mama: 'parent',
  mommy: 'parent',
  mummy: 'parent',
  papa: 'parent',
  daddy: 'parent',
  'line manager': 'manager',
  roommate: 'friend',
  flatmate: 'friend',
  housemate: 'friend',
};

const SPECIES = new Set([
  'dog',
  'puppy',
  'cat',
  'kitten',
  'rabbit',
  'bunny',
  'hamster',
  'guinea pig',
  'parrot',
  'budgie',
  'bird',
  'fish',
  'goldfish',
  'turtle',
  'tortoise',
  'snake',
  'lizard',
  'gecko',
  'horse',
  'pony',
  'ferret',
  'chicken',
  'hen',
  'pig',
  'goat',
  'rat',
  'mouse',
  // common breeds people name instead of the species
  'labrador',
  'retriever',
  'poodle',
  'beagle',
  'terrier',
  'bulldog',
  'husky',
  'corgi',
  'dachshund',
  'spaniel',
  'collie',
  'chihuahua',
  'pug',
  'greyhound',
  'shepherd',
  'tabby',
  'siamese',
  'mutt',
]);

const PLURAL_PEOPLE: Record<string, string> = {
  kids: 'kid',
  children: 'child',
  littlies: 'littlie',
  kiddies: 'kiddie',
  parents: 'parent',
  brothers: 'brother',
  sisters: 'sister',
  siblings: 'sibling',
  friends: 'friend',
  coworkers: 'coworker',
  colleagues: 'colleague',
  teammates: 'teammate',
  twins: 'twin',
  sons: 'son',
  daughters: 'daughter',
  roommates: 'roommate',
};

/** Every person noun with the relation it names ("boss" → manager), pets left out. */
export function personNouns(): readonly (readonly [string, PersonRelation])[] {
  return Object.entries(PEOPLE);
}

/**
 * "my oldest", "our youngest": a parent's way of naming a child by their place among the
 * children. Kept apart from the nouns above, which also stand for their relation's meaning.
 */
const CHILD_BY_AGE = new Set(['oldest', 'eldest', 'youngest']);

/** "oldest", "youngest": a child named by their place among the children. */
export function isChildByAge(word: string): boolean {
  return CHILD_BY_AGE.has(word.toLowerCase());
}

/** The relation a person noun names ("sister" → sibling), pets included; null otherwise. */
export function personNoun(noun: string): PersonRelation | null {
  const n = singular(noun);
  if (PEOPLE[n]) return PEOPLE[n];
  if (CHILD_BY_AGE.has(n)) return 'child';
  if (isSpecies(n)) return 'pet';
  return null;
}

export function singular(noun: string): string {
  const n = noun.toLowerCase();
  if (PLURAL_PEOPLE[n]) return PLURAL_PEOPLE[n];
  if (PEOPLE[n] || SPECIES.has(n)) return n;
  if (n.endsWith('ies') && n.length > 4) return n.slice(0, -3) + 'y';
  if (/(?:sh|ch|x)es$/.test(n)) return n.slice(0, -2);
  if (n.endsWith('s') && !n.endsWith('ss')) return n.slice(0, -1);
  return n;
}

export function isSpecies(noun: string): boolean {
  const n = noun.toLowerCase();
  return SPECIES.has(n) || SPECIES.has(singular(n));
}

const DRINKS = new Set([
  'coffee',
  'tea',
  'espresso',
  'latte',
  'cappuccino',
  'americano',
  'macchiato',
  'mocha',
  'decaf',
  'matcha',
  'chai',
  'cocoa',
  'hot chocolate',
  'juice',
  'water',
  'soda',
  'cola',
  'lemonade',
  'kombucha',
  'smoothie',
  'milk',
  'beer',
  'wine',
  'whisky',
  'whiskey',
  'cider',
  'yerba mate',
  'mate',
]);

/** Whether a noun phrase names a drink ("green tea", "oat milk lattes"). */
export function isDrink(phrase: string): boolean {
  const words = phrase.toLowerCase().split(/\s+/);
  const head = singular(words.at(-1) ?? '');
  return DRINKS.has(head) || DRINKS.has(words.slice(-2).join(' '));
}

const VEHICLES = new Set([
  'car',
  'bike',
  'bicycle',
  'e-bike',
  'ebike',
  'motorcycle',
  'motorbike',
  'scooter',
  'moped',
  'van',
  'truck',
  'pickup',
  'suv',
  'minivan',
  'hatchback',
  'sedan',
  'convertible',
  'camper',
]);

export function isVehicle(phrase: string): boolean {
  const head = singular(phrase.toLowerCase().split(/\s+/).at(-1) ?? '');
  return VEHICLES.has(head);
}

/** Kinds of personal device, each word with the kind it names: "my phone", "a new laptop". */
const DEVICE_KINDS: Record<string, string> = {
  phone: 'phone',
  smartphone: 'phone',
  mobile: 'phone',
  cellphone: 'phone',
  laptop: 'laptop',
  notebook: 'laptop',
  tablet: 'tablet',
  computer: 'computer',
  pc: 'computer',
  desktop: 'computer',
  watch: 'watch',
  smartwatch: 'watch',
  console: 'console',
  camera: 'camera',
  headphones: 'headphones',
  earbuds: 'headphones',
  'e-reader': 'e-reader',
  ereader: 'e-reader',
};

/** The kind of device a noun names ("smartphone" → "phone"), or null. */
export function deviceKind(noun: string): string | null {
  return DEVICE_KINDS[noun.toLowerCase()] ?? null;
}

/** Ways of getting somewhere: the verb or noun of a commute. */
const TRANSPORT: Record<string, string> = {
  bike: 'bikes',
  cycle: 'cycles',
  walk: 'walks',
  drive: 'drives',
  run: 'runs',
  carpool: 'carpools',
  train: 'takes the train',
  bus: 'takes the bus',
  subway: 'takes the subway',
  metro: 'takes the metro',
  tube: 'takes the tube',
  tram: 'takes the tram',
  ferry: 'takes the ferry',
  car: 'drives',
  bicycle: 'bikes',
  scooter: 'rides a scooter',
  foot: 'walks',
};

/** How someone travels, third person ("bikes", "takes the train"), from a verb or noun. */
export function transportPhrase(word: string): string | null {
  return TRANSPORT[word.toLowerCase()] ?? null;
}

const INSTRUMENTS = new Set([
  'guitar',
  'piano',
  'violin',
  'viola',
  'cello',
  'double bass',
  'bass',
  'drums',
  'drum',
  'ukulele',
  'flute',
  'saxophone',
  'sax',
  'trumpet',
  'trombone',
  'clarinet',
  'oboe',
  'harp',
  'banjo',
  'mandolin',
  'harmonica',
  'accordion',
  'keyboard',
  'keyboards',
  'synth',
  'organ',
  'tuba',
  'bagpipes',
]);

export function isInstrument(phrase: string): boolean {
  const words = phrase.toLowerCase().split(/\s+/);
  return INSTRUMENTS.has(words.at(-1) ?? '') || INSTRUMENTS.has(words.slice(-2).join(' '));
}

const DIETS = new Set([
  'vegetarian',
  'vegan',
  'pescatarian',
  'pescetarian',
  'keto',
  'paleo',
  'gluten-free',
  'dairy-free',
  'halal',
  'kosher',
  'low-carb',
  'carnivore',
  'flexitarian',
  'plant-based',
]);

export function isDiet(word: string): boolean {
  return DIETS.has(word.toLowerCase());
}

/** Foods whose avoidance is a diet ("I don't eat meat"). */
const DIET_FOODS = new Set([
  'meat',
  'pork',
  'beef',
  'fish',
  'seafood',
  'dairy',
  'gluten',
  'sugar',
  'eggs',
  'red meat',
  'chicken',
  'carbs',
  'animal products',
]);

export function isDietFood(phrase: string): boolean {
  return DIET_FOODS.has(phrase.toLowerCase());
}

/** Nouns heading a health condition ("celiac disease", "asthma", "a bad knee"). */
const CONDITIONS = new Set([
  'disease',
  'disorder',
  'syndrome',
  'condition',
  'asthma',
  'diabetes',
  'arthritis',
  'migraine',
  'migraines',
  'epilepsy',
  'insomnia',
  'anxiety',
  'depression',
  'adhd',
  'autism',
  'eczema',
  'hypertension',
  'injury',
  'tinnitus',
  'scoliosis',
  'allergies',
  'intolerance',
  'back',
  'knee',
  'knees',
  'hip',
  'shoulder',
  'ankle',
  'cancer',
  'concussion',
  'covid',
  'flu',
  'pneumonia',
  'fracture',
  'ibs',
  'pcos',
  'lupus',
]);

/** Adjectives that name a lasting condition of whoever they describe ("I'm diabetic"). */
const CONDITION_ADJECTIVES = new Set([
  'diabetic',
  'prediabetic',
  'coeliac',
  'celiac',
  'epileptic',
  'asthmatic',
  'anaemic',
  'anemic',
  'arthritic',
  'autistic',
  'dyslexic',
  'dyspraxic',
  'bipolar',
  'deaf',
  'blind',
  'colorblind',
  'colourblind',
  'immunocompromised',
  'hypertensive',
  'hypothyroid',
  'insulin-dependent',
]);

export function isConditionAdjective(word: string): boolean {
  return CONDITION_ADJECTIVES.has(word.toLowerCase());
}

export function isCondition(phrase: string): boolean {
  return CONDITIONS.has(phrase.toLowerCase().split(/\s+/).at(-1) ?? '');
}

const JOBS = new Set(
  (
    'engineer developer programmer designer teacher nurse doctor physician surgeon lawyer ' +
    'attorney manager student scientist researcher writer author journalist artist painter ' +
    'consultant accountant analyst architect chef cook photographer musician counselor ' +
    'counsellor therapist professor lecturer pharmacist dentist veterinarian vet firefighter ' +
    'electrician plumber carpenter mechanic pilot farmer baker barista waiter waitress cashier ' +
    'entrepreneur founder ceo cto cfo coo director editor librarian paramedic officer soldier ' +
    'intern freelancer translator tutor coach trainer psychologist economist biologist chemist ' +
    'physicist mathematician statistician administrator secretary clerk recruiter marketer ' +
    'salesperson realtor investor banker tester sysadmin lead principal owner driver courier ' +
    'technician assistant receptionist caregiver midwife optometrist surveyor planner producer ' +
    'animator illustrator copywriter specialist coordinator strategist advisor adviser agent ' +
    'retiree postdoc phd'
  ).split(' '),
);

/**
 * Endings that make an occupation of a word: specialists ("cardiologist"), trades in -ician
 * ("electrician") and -smith ("locksmith"), and -man/-woman ("fisherman", "postwoman").
 */
const JOB_SUFFIX = /(?:ologist|ician|iatrist|smith|.{4,}(?:man|woman))$/;
/** -man words that are not occupations. */
const NOT_JOBS = new Set([
  'gentleman',
  'snowman',
  'caveman',
  'superman',
  'ottoman',
  'doberman',
  'walkman',
]);

/**
 * Whether a noun phrase names an occupation ("a senior data engineer", "a fisherman"), also
 * by an occupation before its head ("a vet tech", "a nurse practitioner", "a lead singer").
 */
export function isJob(phrase: string): boolean {
  const words = phrase.toLowerCase().split(/\s+/);
  const head = singular(words.at(-1) ?? '');
  if (JOBS.has(head) || (JOB_SUFFIX.test(head) && !NOT_JOBS.has(head))) return true;
  return words.length >= 2 && JOBS.has(words.at(-2)!);
}

/**
 * Things an organisation has that its staff live through: launches, reviews, quarters,
 * offices, payroll. "Safaricom's mid-year reviews", "the crunch before launch at Ubisoft".
 */
const ORGANISATION_WORK = new Set(
  (
    'launch launches release releases review reviews appraisal appraisals quarter quarters ' +
    'office offices hq headquarters payroll layoffs redundancies reorg restructure ' +
    'restructuring all-hands onboarding crunch deadline deadlines rota standup standups ' +
    'sprint sprints roadmap bonus bonuses pension canteen'
  ).split(' '),
);
/**
 * The people, hours and posts of a workplace: only "at" a name are they an employer's ("my
 * team at X", "my job at X").
 */
const WORKPLACE_PEOPLE = new Set(
  (
    'team teams manager boss colleagues coworkers co-workers shift shifts department ' +
    'job role position internship placement apprenticeship'
  ).split(' '),
);

/** What a home is called: "a terraced house", "a flat", "our new place". */
const HOMES = new Set(
  'house home flat apartment place condo bungalow cottage studio townhouse maisonette'.split(' '),
);

export function isHomeNoun(noun: string): boolean {
  return HOMES.has(noun.toLowerCase());
}

/** Nouns of a place of work that its name may follow: "a startup called Tandem". */
const ORGANISATIONS = new Set(
  (
    'startup company firm agency studio consultancy charity organisation organization ' +
    'nonprofit lab bank practice school hospital college university clinic library museum ' +
    'restaurant cafe bakery hotel factory'
  ).split(' '),
);

export function isOrganisationNoun(noun: string): boolean {
  return ORGANISATIONS.has(noun.toLowerCase());
}

/** The group a writer works in, as they call their own: "our team", "my squad", "our company". */
const TEAMS = new Set(
  'team squad company org organisation organization department startup firm'.split(' '),
);

/** Whether a noun names a group people work in together ("team", "squad", "company"). */
export function isTeamNoun(noun: string): boolean {
  return TEAMS.has(noun.toLowerCase());
}

/** Whether a noun is something an organisation has that its staff go through ("reviews"). */
export function isOrganisationWork(noun: string): boolean {
  return ORGANISATION_WORK.has(noun.toLowerCase());
}

/** Whether a noun is of work at a place: an organisation's things or its people and shifts. */
export function isWorkNoun(noun: string): boolean {
  const n = noun.toLowerCase();
  return ORGANISATION_WORK.has(n) || WORKPLACE_PEOPLE.has(n);
}

/** People whose job is health care, by their everyday names ("doc", "physio", "GP"). */
const HEALTH_PROFESSIONS = new Set(
  (
    'doctor doc gp physician surgeon nurse physio physiotherapist therapist dentist ' +
    'optician optometrist pharmacist midwife chiropractor osteopath consultant specialist ' +
    'psychiatrist psychologist paediatrician pediatrician dietitian dietician nutritionist'
  ).split(' '),
);

/** Whether a noun names someone who treats people's health ("my physio", "the cardiologist"). */
export function isHealthProfessional(noun: string): boolean {
  const n = singular(noun);
  return HEALTH_PROFESSIONS.has(n) || /(?:ologist|iatrist)$/.test(n);
}

/**
 * Whether a noun names someone who speaks about a person with professional standing (a
 * doctor, a tutor, an accountant): what they tell the user about the user is a fact.
 */
export function isProfessional(noun: string): boolean {
  return isHealthProfessional(noun) || isJob(noun);
}

/** Words of building software: a clause with one is about a tech stack, not a tool. */
export function isProgrammingContext(word: string): boolean {
  return [
    'code',
    'program',
    'develop',
    'build',
    'write',
    'backend',
    'frontend',
    'stack',
    'database',
    'framework',
    'language',
    'library',
    'server',
    'api',
    'app',
    'service',
    'deploy',
    'infrastructure',
    'cloud',
    'firmware',
    'software',
    'codebase',
    'website',
    'repo',
    'monorepo',
    'ci',
    'pipeline',
    'infra',
    'hosting',
  ].includes(word.toLowerCase());
}

/** Nouns ending in -ing that are not activities ("morning", "wedding"). */
const ING_NOUNS = new Set([
  'morning',
  'evening',
  'thing',
  'something',
  'nothing',
  'anything',
  'everything',
  'building',
  'ceiling',
  'wedding',
  'king',
  'ring',
  'spring',
  'string',
  'wing',
  'pudding',
  'ending',
  'meeting',
  'feeling',
  'clothing',
  'earring',
  'dumpling',
  'stuffing',
  'icing',
  'frosting',
  'seasoning',
  'topping',
  'filling',
  'bedding',
  'sibling',
  'offspring',
  'duckling',
  'outing',
  'evening',
]);

export function isIngNoun(word: string): boolean {
  return ING_NOUNS.has(word.toLowerCase());
}

/** Family words that also name how things of code and documents relate ("parent component"). */
const STRUCTURE_FAMILY = new Set(['parent', 'child', 'sibling', 'sister']);
/** What "parent", "child" or "sibling" describe in code and documents. */
const STRUCTURE_NOUNS =
  /^(?:components?|process(?:es)?|class(?:es)?|elements?|nodes?|threads?|director(?:y|ies)|folders?|tables?|widgets?|views?|windows?|branch(?:es)?|repos?|repositor(?:y|ies)|themes?|containers?|pods?|objects?|tasks?|jobs?|records?|rows?|entit(?:y|ies)|keys?|pages?|routes?|modules?|items?|divs?|tags?|selectors?|spans?|issues?|tickets?|companies|company|sites?|functions?|fields?|states?)$/iu;

/** "parent component", "child process", "sister company": a family word describing a thing. */
export function isStructureOfThings(family: string, noun: string): boolean {
  return STRUCTURE_FAMILY.has(singular(family)) && STRUCTURE_NOUNS.test(noun);
}

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A whole number written in digits or words ("7", "seven", "forty", "thirty-five"); null otherwise. */
export function wholeNumber(word: string): number | null {
  const w = word.toLowerCase();
  if (/^\d{1,3}$/u.test(w)) return Number(w);
  const unit = UNITS.indexOf(w);
  if (unit >= 0) return unit;
  const [tens, ones] = w.split('-');
  const t = TENS.indexOf(tens ?? '');
  if (t < 0) return null;
  if (ones === undefined) return (t + 2) * 10;
  const o = UNITS.indexOf(ones);
  return o >= 1 && o <= 9 ? (t + 2) * 10 + o : null;
}
