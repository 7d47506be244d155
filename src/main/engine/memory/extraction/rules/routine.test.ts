import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import type { Rule } from '../fact.ts';
import { commute, drink, schedule, vehicle, vehicleMentioned } from './routine.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** A rule that needs word meaning, over every clause of a text. */
const withMeaning = (rule: Rule, text: string) => brief(applyRule(rule, text, false, words));

describe('drink', () => {
  it.each([
    ['I drink a lot of coffee.', 'User drinks coffee [user|drink|coffee]'],
    [
      'I have an oat milk latte every morning.',
      'User drinks oat milk latte [user|drink|oat milk latte]',
    ],
    ['My go-to drink is iced matcha.', 'User drinks iced matcha [user|drink|iced matcha]'],
    // A measure of a drink, counted roughly or not, is the drink.
    ['I drink like 4 cups of coffee a day.', 'User drinks coffee [user|drink|coffee]'],
    ['I have two glasses of wine with dinner.', 'User drinks wine [user|drink|wine]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(drink, sentence))).toEqual([expected]);
  });

  it.each([
    'I have a meeting at noon.',
    'My dad drinks whisky? No way.',
    'I drink it slowly.',
    'I have 3 bottles of hot sauce.',
  ])('nothing about the user from %j', (s) => {
    expect(applyRule(drink, s).filter((f) => f.subject === 'user')).toEqual([]);
  });
});

describe('vehicle', () => {
  it.each([
    ['I drive a Subaru Outback.', 'User drives a Subaru Outback [user|vehicle|Subaru Outback]'],
    ['I just bought a used motorbike.', 'User has a used motorbike [user|vehicle|used motorbike]'],
    ['My car is a Honda Civic.', 'User drives a Honda Civic [user|vehicle|Honda Civic]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(vehicle, sentence))).toEqual([expected]);
  });

  it.each(['I drive my kids to school.', 'I bought a new laptop.'])('nothing from %j', (s) => {
    expect(applyRule(vehicle, s)).toEqual([]);
  });
});

describe('commute', () => {
  it.each([
    ['I bike to work.', 'User bikes to work [user|commute|bike]'],
    ['I take the train to the office.', 'User takes the train to work [user|commute|train]'],
    ['I commute by bus.', 'User commutes by bus [user|commute|bus]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(commute, sentence))).toEqual([expected]);
  });

  it.each(['I walk to the park.', 'I take the train to Paris.'])('nothing from %j', (s) => {
    expect(applyRule(commute, s)).toEqual([]);
  });
});

describe('schedule', () => {
  it.each([
    [
      'I work from home on Mondays.',
      'User works from home on Mondays [user|schedule|works from home on Mondays]',
    ],
    [
      "I can't do meetings before 10am.",
      "User can't do meetings before 10am [user|schedule|can't do meetings before 10am]",
    ],
    [
      'I pick up my son every weekday at 3.',
      'User picks up their son every weekday at 3 [user|schedule|picks up their son every weekday at 3]',
    ],
    // The time said before the subject stays with the fact.
    [
      'On Mondays I teach a pottery class.',
      'User teaches a pottery class (on Mondays) [user|schedule|teaches a pottery class (on Mondays)]',
    ],
    [
      'every thursday 10 to 12 I am stuck in the design review.',
      'User is stuck in the design review (every thursday 10 to 12) [user|schedule|is stuck in the design review (every thursday 10 to 12)]',
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(schedule, sentence))).toEqual([expected]);
  });

  it.each(['I worked late yesterday.', 'My sister works on Sundays.', 'I am happy every day.'])(
    'nothing from %j',
    (s) => {
      expect(applyRule(schedule, s)).toEqual([]);
    },
  );
});

describe('schedule: a recurring time before the subject', () => {
  it.each([
    [
      'Mornings I swim at the lido',
      'User swims at the lido (in the mornings) [user|schedule|swims at the lido (in the mornings)]',
    ],
    [
      'Most evenings I practise piano',
      'User practices piano (most evenings) [user|schedule|practices piano (most evenings)]',
    ],
    [
      'Weekend mornings, I run 5k',
      'User runs 5k (weekend mornings) [user|schedule|runs 5k (weekend mornings)]',
    ],
    [
      'Some weekends we go hiking in the hills',
      'User goes hiking in the hills (some weekends) [user|schedule|goes hiking in the hills (some weekends)]',
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(schedule, sentence))).toEqual([expected]);
  });

  it.each([
    // not every time of the day: one, or none before the subject
    'Last week I swam at the lido',
    'This morning I swam at the lido',
    'Mornings are hard',
    "I can't stand mornings at all",
    // when, but too little of what
    'Mornings I swim',
  ])('nothing from %j', (s) => {
    expect(applyRule(schedule, s)).toEqual([]);
  });

  it('leaves a way to work to the commute', () => {
    expect(applyRule(schedule, 'I cycle to work every day, about 8 miles each way')).toEqual([]);
  });
});

describe("schedule: the writer's own team", () => {
  it.each([
    [
      'my team deploys on Thursdays',
      "User's team deploys on Thursdays [user|schedule|deploys on Thursdays]",
    ],
    [
      'Our squad does standup every morning at 9.',
      "User's squad does standup every morning at 9 [user|schedule|does standup every morning at 9]",
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(schedule, sentence))).toEqual([expected]);
  });

  it.each([
    'their team deploys on Thursdays',
    "my brother's team deploys on Thursdays",
    'my team won on Saturday',
  ])('nothing from %j', (s) => {
    expect(applyRule(schedule, s)).toEqual([]);
  });
});

describe('schedule: a time of day said as a habit', () => {
  it.each([
    ['I usually get up at 6.', 'User usually gets up at 6 [user|schedule|usually gets up at 6]'],
    ['I go to bed around 11.', 'User goes to bed around 11 [user|schedule|goes to bed around 11]'],
    ["I'm usually up at 5:30.", 'User is usually up at 5:30 [user|schedule|is usually up at 5:30]'],
    [
      'I normally finish work at half five.',
      'User normally finishes work at half five [user|schedule|normally finishes work at half five]',
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(schedule, sentence))).toEqual([expected]);
  });

  // One appointment, or a time that is not now the user's habit.
  it.each([
    'I have a meeting at 3.',
    "I'm at the dentist at 4.",
    'I land at 6 tomorrow.',
    'I finish at 5 today.',
    'I was up at 5.',
    'I will get up at 6.',
    'My son gets up at 6.',
    "I'm 35 at the moment.",
  ])('nothing from %j', (s) => {
    expect(applyRule(schedule, s)).toEqual([]);
  });
});

describe('drink: chat ways of saying it', () => {
  it.each([
    ['I basically survive on green tea.', 'User drinks green tea [user|drink|green tea]'],
    ['I run on espresso most days.', 'User drinks espresso [user|drink|espresso]'],
    ["I'm a massive coffee drinker.", 'User is a massive coffee drinker [user|drink|coffee]'],
    ["I'm an oat latte addict.", 'User is an oat latte addict [user|drink|oat latte]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(drink, text))).toEqual([expected]);
  });

  it.each(["I'm a sneaker addict.", 'I run on the treadmill.', 'I live on a boat.'])(
    'nothing from %j',
    (text) => {
      expect(applyRule(drink, text)).toEqual([]);
    },
  );
});

describe('schedule: a "go" that leaves its activity to the clause before', () => {
  it.each([
    [
      "I've taken up bouldering, I go twice a week after my shifts.",
      ['User goes bouldering twice a week after their shifts'],
    ],
    ['I go twice a week after work.', []],
  ])('%j', (sentence, expected) => {
    expect(applyRule(schedule, sentence).map((f) => f.text)).toEqual(expected);
  });
});

describe("vehicle: by make, a year, and the user's own", () => {
  it.each([
    ['I drive an old subaru.', 'User drives a Subaru [user|vehicle|Subaru]'],
    ['We just bought a Tesla Model 3.', 'User has a Tesla Model 3 [user|vehicle|Tesla Model 3]'],
    ["my car's a 2012 Civic", 'User drives a 2012 Civic [user|vehicle|Civic]'],
    [
      'I ride my e-bike in every day, even when it rains.',
      'User rides an e-bike [user|vehicle|e-bike]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(vehicle, text)).toEqual([expected]);
  });

  it.each([
    'Bought a used Yamaha keyboard.',
    'I have an old model of it.',
    'I bought a new laptop.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(vehicle, text)).toEqual([]);
  });
});

describe('vehicleMentioned', () => {
  it.each([
    [
      'my old subaru outback needs new tires soon',
      'User has a Subaru Outback [user|vehicle|Subaru Outback]',
    ],
    ["my Corolla's due a service", 'User has a Corolla [user|vehicle|Corolla]'],
    ['took our trusty Yamaha out for a spin', 'User has a Yamaha [user|vehicle|Yamaha]'],
  ])('%j', (text, expected) => {
    expect(withMeaning(vehicleMentioned, text)).toEqual([expected]);
  });

  it.each([
    "my dad's corolla broke down",
    'I sold my old subaru last year.',
    'my car needs new tires',
    'my model needs more training data',
    'the Corolla is due a service',
    'my Yamaha keyboard is out of tune',
  ])('nothing from %j', (text) => {
    expect(withMeaning(vehicleMentioned, text)).toEqual([]);
  });

  it.each([
    'can you recommend a subaru dealer?',
    'is my subaru worth fixing?',
    'if my corolla breaks down again I will scream',
  ])('the engine states no vehicle from %j', (text) => {
    expect(
      extractFacts(text, { at: SAID_AT, words }).filter((f) => f.relation === 'vehicle'),
    ).toEqual([]);
  });
});

describe('commute: "in" with no place after it', () => {
  it.each([
    [
      'I ride my e-bike in every day, even when it rains.',
      'User rides their e-bike to work [user|commute|e-bike]',
    ],
    ['I cycle in most days.', 'User cycles to work [user|commute|cycle]'],
    ['I drive in on Mondays.', 'User drives to work [user|commute|drive]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(commute, text))).toEqual([expected]);
  });

  it.each([
    'I drive in the rain a lot.',
    'I cycled in yesterday.',
    'I ride my bike in London.',
    'She cycles in every day.',
  ])('nothing from %j', (text) => {
    expect(applyRule(commute, text)).toEqual([]);
  });
});

describe('schedule: a clause that ends where the next one begins', () => {
  it('leaves a dangling ", even" to the clause it belongs to', () => {
    expect(
      brief(applyRule(schedule, "I swim at the lido every day, even when it's chucking it down.")),
    ).toEqual(['User swims at the lido every day [user|schedule|swims at the lido every day]']);
  });
});
