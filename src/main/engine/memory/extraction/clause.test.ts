import { describe, expect, it } from 'vitest';
import { clausesOf, type Clause } from './clause.ts';
import { analyse } from './nlp.ts';

const clauses = (text: string): Clause[] => analyse(text).flatMap((s) => clausesOf(s));
const words = (c: Clause) =>
  c.toks
    .filter((t) => t.pos !== 'PUNCT')
    .map((t) => t.norm)
    .join(' ');
/** The clause whose words start with `start`. */
const clause = (text: string, start: string): Clause => {
  const found = clauses(text).find((c) =>
    words(c)
      .replace(/^(?:, )?/, '')
      .startsWith(start),
  );
  if (!found) throw new Error(`no clause starting "${start}" in ${JSON.stringify(text)}`);
  return found;
};

describe('clausesOf: a question is one by its own form, not by what follows it', () => {
  it.each([
    ['we finally moved to Leeds 🎊 so what should I buy first for the flat?', 'we finally moved'],
    ['I adopted a cat last week btw, how often should I feed her?', 'i adopted a cat'],
    ['I started at Stripe in May, how do I read a payslip?', 'i started at stripe'],
    ['My son Arlo turned six, any ideas for a party?', 'my son arlo turned'],
    ['I play the oboe :) anyway can you explain tax codes?', 'i play the oboe'],
    ['I work nights. ok now, is it safe to nap at 6pm?', 'i work nights'],
    [
      "my daughter Ines turns seven next week and she's begging for a dinosaur party, got any game ideas?",
      'my daughter ines turns',
    ],
    ['My son Arlo turned six, any chance you could help with a party?', 'my son arlo turned'],
    ['We moved to Leeds last month, thoughts?', 'we moved to leeds'],
    ['I got a new puppy, ideas?', 'i got a new puppy'],
    ['I started running, anyone know a good plan?', 'i started running'],
    ['My dog Rex is 3, good food suggestions?', 'my dog rex is'],
    ['We moved to Leeds, what do you think?', 'we moved to leeds'],
    ['I speak fluent Portuguese, will that help me in Mexico?', 'i speak fluent portuguese'],
    ['I work nights, is that bad for my sleep?', 'i work nights'],
  ])('%j: the statement before the question is not one', (text, start) => {
    expect(clause(text, start).question).toBe(false);
    expect(clauses(text).at(-1)!.question).toBe(true);
  });

  it.each([
    'Do you think I should move to Lisbon?',
    'what do you know about Lisbon',
    'Can you tell me about Lisbon, and is it expensive?',
    'I wonder whether Lisbon is nice?',
  ])('%j stays a question', (text) => {
    expect(clauses(text)[0]!.question).toBe(true);
  });

  it.each([
    ["I'm allergic to peanuts, right?", 'i am allergic'],
    ["my sister lives in Rome, isn't it?", 'my sister lives'],
    ["I'm allergic to, like, peanuts?", 'i am allergic'],
    ['Looking for a flat in Leeds, maybe near the station?', 'looking for a flat'],
    ["I'm going to Rome, Paris?", 'i am going'],
  ])('%j: what goes on after the comma keeps the sentence a question', (text, start) => {
    expect(clause(text, start).question).toBe(true);
  });

  it('a relative clause after a comma is not cut off as a question', () => {
    expect(clause('I moved to Porto, which I love.', 'i moved to porto').question).toBe(false);
  });
});

describe('clausesOf: the subject chat leaves out', () => {
  it.each([
    ['Repainted the whole hallway on Sunday.', 'repaint'],
    ['just sold my old Peugeot', 'sell'],
    ['Finally joined a climbing gym!', 'join'],
    ['Moving into halls next week, so excited', 'move'],
    ['had lunch with my aunt Wen today', 'have'],
    ['been knitting a lot since the winter started', 'knit'],
  ])('%j is the writer speaking', (text, verb) => {
    const [c] = clauses(text);
    expect(c).toMatchObject({ subject: { kind: 'user' }, implicitSubject: true, verb });
  });

  it.each([
    ["haven't seen daylight in 2 weeks", 'see'],
    ['the launch is brutal, have barely slept since Monday', 'sleep'],
  ])('a perfect without "I" in %j is the writer speaking', (text, verb) => {
    const c = clauses(text).at(-1)!;
    expect(c).toMatchObject({ subject: { kind: 'user' }, implicitSubject: true, verb });
  });

  it('after "I", a word wink reads as a noun is the verb ("I boulder three times a week")', () => {
    expect(clauses('I boulder three times a week')[0]).toMatchObject({ verb: 'boulder' });
  });

  it('"Saturday mornings I ..." reads the subject after the part of the day', () => {
    expect(clauses('Saturday mornings I am out with binoculars')[0]!.subject).toEqual({
      kind: 'user',
      plural: false,
    });
  });

  it.each([
    ["Weekends I'm usually out birdwatching on the marshes with a flask.", 'be', false],
    ['Sundays we do a big roast', 'do', true],
    ['Mornings I swim at the lido', 'swim', false],
    ['Most evenings I practise piano', 'practice', false],
    ['Weekend mornings, I run 5k', 'run', false],
    ['On Saturdays, we row on the canal', 'row', true],
  ])('a time before the subject in %j is when, not who', (text, verb, plural) => {
    expect(clauses(text)[0]).toMatchObject({ subject: { kind: 'user', plural }, verb });
  });

  it.each(['Mornings are hard for me', 'Sundays are for resting'])(
    'a time that is the subject stays one in %j',
    (text) => {
      expect(clauses(text)[0]!.subject.kind).not.toBe('user');
    },
  );

  it('"have" before a noun or a question is not a perfect left without "I"', () => {
    expect(clauses('have a great weekend')[0]!.implicitSubject).toBe(false);
    expect(clauses('have you seen my keys?')[0]!.question).toBe(true);
  });

  it('an -ing form left without "I am" reads as progressive', () => {
    expect(clauses('Renovating the attic this summer')[0]).toMatchObject({ progressive: true });
  });

  it.each([
    'Write me a limerick about cheese.',
    'Help me plan a trip.',
    'Swimming is my favourite sport.',
    'Baking bread takes hours.',
    'Explain monads simply.',
  ])('%j has no user subject', (text) => {
    const c = clauses(text)[0]!;
    expect(c.subject.kind === 'user' && c.implicitSubject).toBe(false);
  });

  it('a second predicate after a comma shares the subject', () => {
    const c = clause('we did it, bought a house in Derby!', 'bought a house');
    expect(c.subject).toEqual({ kind: 'user', plural: true });
    expect(c.verb).toBe('buy');
  });

  it('a participle that describes is not a second predicate', () => {
    const all = clauses('I work at Acme, based in Berlin.');
    expect(all).toHaveLength(1);
  });

  it('a time range or a short phrase before "I" does not hide the subject', () => {
    expect(clause('every Monday 9 to 11 I have physio', 'every monday')).toMatchObject({
      subject: { kind: 'user' },
      verb: 'have',
    });
    expect(clause('At weekends I volunteer at a food bank', 'at weekends')).toMatchObject({
      subject: { kind: 'user' },
      verb: 'volunteer',
    });
  });
});

describe('clausesOf: what others say', () => {
  it('a professional speaking about the user attests the fact', () => {
    const c = clause('The GP said my iron levels are low, so I take tablets.', 'my iron levels');
    expect(c).toMatchObject({ reported: false, attestedBy: 'GP', subject: { kind: 'possession' } });
    // the writer speaks again after "so"
    expect(
      clause('The GP said my iron levels are low, so I take tablets.', 'so i take'),
    ).toMatchObject({ reported: false, attestedBy: null });
  });

  it('anyone else saying something, or a professional about themselves, stays reported', () => {
    expect(clause('My aunt says I look tired.', 'i look tired')).toMatchObject({
      reported: true,
      attestedBy: null,
    });
    expect(clause('The dentist said he is retiring.', 'he is retiring')).toMatchObject({
      reported: true,
      attestedBy: null,
    });
  });

  it('"like I said" restates, it does not report', () => {
    expect(clause('Like I said, I live in Hull.', 'i live in hull').reported).toBe(false);
  });
});

describe('clausesOf: possessive subjects', () => {
  it('a role with "of" and a name set off by commas', () => {
    expect(clause('My director of studies, Dr Amadi, signed it off.', 'my director')).toMatchObject(
      { subject: { kind: 'possession', noun: 'director of studies', name: 'Dr Amadi' } },
    );
  });

  it('two nouns for one person: the relation noun with the name', () => {
    expect(
      clause('My colleague and close friend Ines runs marathons.', 'my colleague'),
    ).toMatchObject({ subject: { kind: 'relative', relation: 'friend', name: 'Ines' } });
  });

  it('a person noun after another is the head ("my twin brothers are")', () => {
    expect(clause('My twin brothers are Declan and Ruairi', 'my twin')).toMatchObject({
      subject: { kind: 'relative', relation: 'sibling', noun: 'brothers', name: null },
      verb: 'be',
    });
    expect(clause('my kid sister Ana is 12', 'my kid').subject).toMatchObject({
      relation: 'sibling',
      name: 'Ana',
    });
  });

  it.each([
    ['my brother-in-law Tom is a chef', 'brother-in-law', 'Tom', 'be'],
    ['my step-mum Jo is a nurse', 'step-mum', 'Jo', 'be'],
    ['my half-brother Sam lives in Oslo', 'half-brother', 'Sam', 'live'],
  ])('a noun written with hyphens is one noun in %j', (text, noun, name, verb) => {
    const all = clauses(text);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ subject: { kind: 'possession', noun, name }, verb });
  });

  it('a hyphen between words still sets off a clause', () => {
    expect(clause('my sister - she lives in Rome - is great', 'she lives').verb).toBe('live');
  });

  it('a plural noun before an object is the verb ("our team models everything")', () => {
    expect(
      clause('Our team models everything in dbt on top of Snowflake.', 'our team'),
    ).toMatchObject({ subject: { kind: 'possession', noun: 'team' }, verb: 'model' });
  });

  it.each([
    ['My house plants all died.', 'house plants'],
    ['My work shoes are worn out.', 'work shoes'],
  ])('a plural noun that is the head stays a noun in %j', (text, noun) => {
    expect(clauses(text)[0]!.subject).toMatchObject({ kind: 'possession', noun });
  });

  it('a thing of the user with no name keeps none', () => {
    expect(clause('My laptop is dying.', 'my laptop').subject).toEqual({
      kind: 'possession',
      noun: 'laptop',
      name: null,
    });
  });
});

describe('clausesOf: requests to the assistant', () => {
  it.each([
    'Please never add raisins to my salads.',
    "Don't ever suggest Comic Sans.",
    'Write me a poem.',
  ])('%j is a request', (text) => {
    expect(clauses(text)[0]).toMatchObject({ imperative: true, subject: { kind: 'other' } });
  });

  it.each(['I never add raisins.', 'Please, my dad is ill.', 'Sold the car.'])(
    '%j is not',
    (text) => {
      expect(clauses(text)[0]!.imperative).toBe(false);
    },
  );
});
