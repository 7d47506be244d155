// The relations typed facts use (DESIGN §6): a small open set of things people say about
// themselves and the people around them. The extraction stage writes facts with these
// relations; the read path maps a question to relations by word meaning (static word vectors
// against each `description`), so "Which city am I based in?" reaches a `lives_in` fact
// without sharing a word with "I moved to Lisbon".
//
// `single`: a person has one value at a time, so a newer fact with the same subject and
// relation supersedes the older one (kept as history, no longer injected). Multi-valued
// relations (hobbies, pets, friends) accumulate; a change statement ("we no longer use X")
// retires one value explicitly.

export const RELATIONS = [
  {
    name: 'lives_in',
    single: true,
    description:
      'where someone lives: home city, town, country, neighborhood, address, moved, based, resident',
  },
  {
    name: 'from',
    single: true,
    description: 'where someone comes from: hometown, birthplace, grew up, native country, origin',
  },
  {
    name: 'job',
    single: true,
    description: 'occupation: job title, profession, role, career, works as, position at work',
  },
  {
    name: 'works_at',
    single: true,
    description:
      'employer: company, organization, workplace, office, firm, startup someone works for, employs, employed',
  },
  {
    name: 'manager',
    single: true,
    description: 'boss at work: manager, supervisor, lead, reports to, superior',
  },
  {
    name: 'coworker',
    single: false,
    description: 'colleague at work: coworker, teammate, colleague, team member',
  },
  {
    name: 'partner',
    single: true,
    description: 'romantic partner: wife, husband, spouse, girlfriend, boyfriend, fiance, married',
  },
  {
    name: 'child',
    single: false,
    description: 'children: son, daughter, kid, baby, child, born',
  },
  {
    name: 'parent',
    single: false,
    description: 'parents: mother, father, mom, dad, mum, parent',
  },
  {
    name: 'sibling',
    single: false,
    description: 'siblings: brother, sister, sibling, twin',
  },
  {
    name: 'friend',
    single: false,
    description: 'friends: friend, buddy, best friend, pal, roommate',
  },
  {
    name: 'pet',
    single: false,
    description:
      'pets and animals someone keeps: dog, cat, puppy, kitten, rabbit, bird, fish, reptile, hamster, breed, adopted, pet',
  },
  {
    name: 'diet',
    single: true,
    description:
      'diet and eating: vegetarian, vegan, meat, food someone eats or avoids, eating habits',
  },
  {
    name: 'allergy',
    single: false,
    description: 'allergies: allergic, allergy, intolerant, intolerance, reaction',
  },
  {
    name: 'health',
    single: false,
    description:
      'health conditions and constraints: illness, condition, injury, medication, doctor, diagnosed',
  },
  {
    name: 'drink',
    single: true,
    description: 'usual beverage: coffee, tea, drink, beverage, juice, water someone drinks',
  },
  {
    name: 'vehicle',
    single: false,
    description: 'vehicles: car, bike, bicycle, motorcycle, drives, rides, commute vehicle',
  },
  {
    name: 'commute',
    single: true,
    description: 'how someone gets to work: commute, travel to the office, train, bus, cycle, walk',
  },
  {
    name: 'hobby',
    single: false,
    description: 'hobbies and pastimes: hobby, sport, leisure, free time, weekends, enjoys doing',
  },
  {
    name: 'instrument',
    single: false,
    description: 'musical instruments someone plays: guitar, piano, violin, drums, music, plays',
  },
  {
    name: 'learning',
    single: false,
    description:
      'what someone is learning or studying: language, course, lessons, studying, practicing',
  },
  {
    name: 'speaks',
    single: false,
    description: 'languages someone speaks: language, fluent, native speaker, speaks',
  },
  {
    name: 'plans',
    single: false,
    description: 'plans and intentions: going to, planning, will, next month, upcoming, goal',
  },
  {
    name: 'travel',
    single: false,
    description: 'trips and travel: trip, vacation, holiday, flight, visiting, travelling abroad',
  },
  {
    name: 'schedule',
    single: false,
    description:
      'schedule and time constraints: meetings, availability, weekdays, mornings, evenings, routine, weekly, recurring',
  },
  {
    name: 'tool',
    single: false,
    description: 'tools and software someone uses: editor, app, program, service, tool, platform',
  },
  {
    name: 'stack',
    single: false,
    description:
      'technology stack: programming language, framework, database, library, cloud, code',
  },
  {
    name: 'likes',
    single: false,
    description: 'likes and favorites: loves, likes, enjoys, favorite, prefers, fan of',
  },
  {
    name: 'dislikes',
    single: false,
    description: 'dislikes: hates, dislikes, cannot stand, avoids, not a fan',
  },
  {
    name: 'name',
    single: true,
    description: 'what someone is called: name, called, nickname',
  },
  {
    name: 'age',
    single: true,
    description: 'how old someone is: age, years old, born in',
  },
  {
    name: 'birthday',
    single: true,
    description: 'birthday: date of birth, born on, birthday is, bday, birth date',
  },
] as const satisfies readonly RelationSpec[];

export interface RelationSpec {
  name: string;
  /** One value at a time: a newer fact supersedes the older one. */
  single: boolean;
  /** Words that describe the relation; questions are matched against them by meaning. */
  description: string;
}

export type Relation = (typeof RELATIONS)[number]['name'];

const BY_NAME: ReadonlyMap<string, RelationSpec> = new Map(RELATIONS.map((r) => [r.name, r]));

export function isRelation(name: string): name is Relation {
  return BY_NAME.has(name);
}

export function relationSpec(name: Relation): RelationSpec {
  return BY_NAME.get(name)!;
}

/** Whether a newer fact with this relation (and the same subject) replaces the older one. */
export function isSingleValued(name: Relation): boolean {
  return BY_NAME.get(name)!.single;
}
