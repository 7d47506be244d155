import { beforeAll, describe, expect, it } from 'vitest';
import { brief, SAID_AT } from '../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../vector/word-vectors.ts';
import { extractFacts } from './extract.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

const facts = (text: string, speaker: string | null = null) =>
  extractFacts(text, { at: SAID_AT, speaker });
/** As the distiller reads a message once the word vectors are loaded. */
const withMeaning = (text: string) => extractFacts(text, { at: SAID_AT, words });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 10));

describe('extractFacts: the statements issue 11 found nothing in', () => {
  it('a switch of drink, and what the old one does to the user', () => {
    expect(brief(facts('I switched to green tea, coffee makes me jittery.'))).toEqual([
      'User drinks green tea [user|drink|green tea]',
      'Coffee makes User jittery [user|health|coffee]',
    ]);
  });

  it('a move, dated by the month it names relative to the message', () => {
    const [f] = facts('I moved to Lisbon in March.');
    expect(f).toMatchObject({
      subject: 'user',
      relation: 'lives_in',
      object: 'Lisbon',
      text: 'User moved to Lisbon (March 2024)',
      identity: true,
    });
    expect(iso(f!.validFrom)).toBe('2024-03-01');
  });

  it('a manager by name, and a pet with species and name', () => {
    expect(brief(facts('My manager is Priya Raman. We adopted a beagle named Biscuit!'))).toEqual([
      "User's manager is Priya Raman [user|manager|Priya Raman]",
      'User has a beagle named Biscuit [user|pet|Biscuit]',
    ]);
  });
});

describe('extractFacts: changes', () => {
  it('"used to ... but now ..." ends the old fact and states the new one', () => {
    expect(brief(facts('I used to drive a Honda Civic but now I bike to work.'))).toEqual([
      'User no longer drives a Honda Civic [user|vehicle|Honda Civic|ended]',
      'User bikes to work [user|commute|bike]',
    ]);
  });

  it('"we no longer use X" ends X', () => {
    expect(brief(facts('We no longer use Jenkins.'))).toEqual([
      'User no longer uses Jenkins [user|tool|Jenkins|ended]',
    ]);
  });

  it('"not ... anymore" ends the fact instead of being an ordinary negation', () => {
    expect(brief(facts("I don't drink coffee anymore."))).toEqual([
      'User no longer drinks coffee [user|drink|coffee|ended]',
    ]);
  });

  it('a relative named in an ended clause is still that relative', () => {
    expect(brief(facts('My sister Ana no longer lives in Rome.'))).toEqual([
      "User's sister Ana no longer lives in Rome [user's sister|lives_in|Rome|ended]",
      'User has a sister named Ana [user|sibling|Ana]',
    ]);
  });

  it('quitting a job ends the employer, dated', () => {
    const [f] = facts('I quit my job at Deloitte last Friday.');
    expect(f).toMatchObject({
      relation: 'works_at',
      object: 'Deloitte',
      ended: true,
      identity: false,
    });
    expect(iso(f!.validFrom)).toBe('2024-04-26');
  });
});

describe('extractFacts: nothing from what is not a statement of fact', () => {
  it.each([
    'Do you live in Paris?',
    'Where do you think I should move?',
    'If I moved to Paris, I would learn French.',
    'I might get a dog.',
    'Maybe I will learn Spanish.',
    'I would love to live in Tokyo.',
    "I don't have a dog.",
    "I don't live in Paris anyway.",
    'I wish I had a cat.',
    'Tom said he moved to Rome.',
    'My friend told me she got a puppy.',
    'He works at Google.',
    'I love that!',
    "I'm not sure I like this.",
    'Thanks, that sounds great.',
    'I am happy to help.',
  ])('%j', (sentence) => {
    expect(facts(sentence)).toEqual([]);
  });

  it("another person's statement is about them when the user names their relation", () => {
    expect(brief(facts('My sister lives in Rome, but Tom said he moved to Oslo.'))).toEqual([
      "User's sister lives in Rome [user's sister|lives_in|Rome]",
    ]);
  });
});

describe('extractFacts: a recurring time is the date of a schedule fact', () => {
  it.each([
    [
      'Saturday mornings I am at the climbing gym.',
      'User is at the climbing gym (Saturday mornings)',
    ],
    ['On Mondays I teach a pottery class.', 'User teaches a pottery class (on Mondays)'],
  ])('%j gets no date of the message', (text, expected) => {
    const schedule = withMeaning(text).filter((f) => f.relation === 'schedule');
    expect(schedule.map((f) => f.text)).toEqual([expected]);
    expect(schedule[0]?.validFrom).toBeNull();
  });
});

describe('extractFacts: plans and dates', () => {
  it.each([
    [
      "I'm flying to Tokyo on the 14th of June.",
      'User is planning a trip to Tokyo (14 June 2024)',
      '2024-06-14',
    ],
    ['We went to Crete last summer.', 'User went on a trip to Crete (June 2023)', '2023-06-01'],
    [
      "I'm going to repaint the kitchen next month.",
      'User plans to repaint the kitchen (June 2024)',
      '2024-06-01',
    ],
    [
      'I have a dentist appointment next Tuesday.',
      'User has a dentist appointment (7 May 2024)',
      '2024-05-07',
    ],
    ['I moved here two years ago.', null, null],
    // The simple present with a month and no year: what is scheduled, so the next March.
    ['We move to Porto in March.', 'User is moving to Porto (March 2025)', '2025-03-01'],
    [
      'I start my new job at Stripe in January.',
      'User works at Stripe (January 2025)',
      '2025-01-01',
    ],
    [
      'Just accepted an offer from Monzo as a backend engineer, starting in March',
      'User works at Monzo (March 2025)',
      '2025-03-01',
    ],
    // A past, a perfect, "since": the month that has been.
    ['I joined Google in March.', 'User works at Google (March 2024)', '2024-03-01'],
    ["I've lived in Lisbon since March.", 'User lives in Lisbon (March 2024)', '2024-03-01'],
    // A date in a clause of its own ("there's a deadline") does not date the job before it.
    [
      "I'm a freelance illustrator, mostly children's books, and there's a deadline on Friday.",
      'User is a freelance illustrator',
      null,
    ],
    // The month of the message itself is not over: a move in it is still ahead.
    ['We move to Porto in May.', 'User is moving to Porto (May 2024)', '2024-05-01'],
  ])('%j', (sentence, text, date) => {
    const [f] = facts(sentence);
    if (text === null) {
      expect(f).toBeUndefined();
      return;
    }
    expect(f?.text).toBe(text);
    expect(iso(f!.validFrom)).toBe(date);
  });
});

describe('extractFacts: a diet given up', () => {
  it.each([
    ["I'm not vegetarian anymore.", 'User is no longer vegetarian [user|diet|vegetarian|ended]'],
    ["I'm no longer vegan.", 'User is no longer vegan [user|diet|vegan|ended]'],
    [
      'My sister is not vegan anymore.',
      "User's sister is no longer vegan [user's sister|diet|vegan|ended]",
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(facts(sentence))).toEqual([expected]);
  });
});

describe('extractFacts: speakers', () => {
  it('a labelled speaker is the subject, and never an identity override', () => {
    const [f] = facts('I moved to Quito last year.', 'Rosa');
    expect(f).toMatchObject({
      subject: 'rosa',
      text: 'Rosa moved to Quito (2023)',
      identity: false,
    });
    expect(facts('My brother Luis lives in Lima.', 'Rosa').map((x) => x.text)).toEqual([
      "Rosa's brother Luis lives in Lima",
      'Rosa has a brother named Luis',
    ]);
  });

  it('greets, then introduces', () => {
    expect(brief(facts("Hi! I'm Dana. I'm learning Korean."))).toEqual([
      "User's name is Dana [user|name|Dana]",
      'User is learning Korean [user|learning|Korean]',
    ]);
  });
});

describe('extractFacts: a chat filler before the subject', () => {
  it.each([
    ['fyi I live in Leeds', 'User lives in Leeds [user|lives_in|Leeds]'],
    ['tbh we use Postgres for everything', 'User uses Postgres [user|tool|Postgres]'],
    ['honestly I hate olives', 'User hates olives [user|dislikes|olives]'],
  ])('%j', (text, expected) => {
    expect(brief(facts(text))).toEqual([expected]);
  });
});

describe('extractFacts: other people', () => {
  it("a friend's plan names the friend, but is not stored as a plan", () => {
    expect(brief(facts('My best friend Rui is moving to Berlin in September.'))).toEqual([
      'User has a best friend named Rui [user|friend|Rui]',
    ]);
  });
});

describe('extractFacts: chat messages that mix a fact with a request', () => {
  it.each([
    [
      'finally moved to Bristol 🙌 btw what is the best way to clean grout?',
      ['User moved to Bristol [user|lives_in|Bristol]'],
    ],
    [
      'Went bouldering with my flatmate Kofi last night. unrelated, but how do I centre a div?',
      [
        'User has a flatmate named Kofi [user|friend|Kofi]',
        'User goes bouldering [user|hobby|bouldering]',
      ],
    ],
    [
      'My GP says my cholesterol is a bit high, what foods help?',
      ["User's cholesterol is a bit high (their GP says so) [user|health|cholesterol]"],
    ],
    [
      'My director of studies, Dr Amadi, wants chapter two by June. Can you help me outline it?',
      ["User's director of studies is Dr Amadi [user|-|Dr Amadi]"],
    ],
    [
      "please never add raisins to my salads, they're vile. anyway, a quick lunch idea?",
      ["User doesn't want raisins to their salads [user|dislikes|raisins]"],
    ],
    [
      'I keep my recipes in Notion these days. How do I make a database view?',
      ['User keeps their recipes in Notion [user|tool|Notion]'],
    ],
    [
      'Bought a used Yamaha keyboard, any tips for a beginner?',
      ['User bought a used Yamaha keyboard [user|instrument|Yamaha]'],
    ],
  ])('%j', (text, expected) => {
    expect(brief(withMeaning(text))).toEqual(expected);
  });

  it.each([
    'Tom said he moved to Rome, lucky him. What is the weather like there?',
    'If I moved to Lisbon, would I need a visa?',
    'Python is great, but how do I sort a dict?',
    'Write me a cover letter for a barista job.',
    'Help me plan a trip to Kyoto for my sister.',
    'Emptied the dishwasher, then answered emails. What should I cook?',
    'Do you think I should buy a Vespa?',
    'My aunt reckons I work too hard.',
    "Please don't use bullet points in this answer.",
  ])('nothing from %j', (text) => {
    expect(withMeaning(text)).toEqual([]);
  });
});

describe('extractFacts: how chat puts a statement', () => {
  it.each([
    [
      "Weekends I'm usually out birdwatching on the marshes with a flask.",
      [
        'User is usually out birdwatching on the marshes with a flask (weekends) [user|schedule|is usually out birdwatching on the marshes with a flask (weekends)]',
        'User goes birdwatching [user|hobby|birdwatching]',
      ],
    ],
    [
      "my daughter Ines turns seven next week and she's begging for a dinosaur party, got any game ideas?",
      [
        "User's daughter Ines is 7 years old (9 May 2024) [user's daughter ines|age|7]",
        'User has a daughter named Ines [user|child|Ines]',
      ],
    ],
    [
      'My twin brothers are Declan and Ruairi.',
      [
        'User has a brother named Declan [user|sibling|Declan]',
        'User has a brother named Ruairi [user|sibling|Ruairi]',
      ],
    ],
    ['my brother-in-law Tom is a chef', ["User's brother-in-law is Tom [user|-|Tom]"]],
  ])('%j', (text, expected) => {
    expect(brief(withMeaning(text))).toEqual(expected);
  });

  it.each(["I'm one of three kids.", "I'm the youngest of three."])('nothing from %j', (text) => {
    expect(withMeaning(text)).toEqual([]);
  });
});
