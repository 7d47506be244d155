import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf } from '../clause.ts';
import { extractFacts } from '../extract.ts';
import { analyse } from '../nlp.ts';
import {
  haveRelative,
  married,
  namedIsMy,
  pronounIsMy,
  relativeIs,
  relativeMentioned,
  relativeNamed,
  relativeTakenForGranted,
  reportsTo,
  roleNamed,
} from './people.ts';

const PEOPLE = new Set([
  'manager',
  'coworker',
  'partner',
  'child',
  'parent',
  'sibling',
  'friend',
  'pet',
]);
/** The people and pets the engine reads from a message (what a rule test cannot show: filters). */
const peopleIn = (text: string) =>
  brief(extractFacts(text, { at: SAID_AT }).filter((f) => PEOPLE.has(f.relation ?? '')));

describe('relativeNamed', () => {
  it.each([
    ['My sister Ana lives in Rome.', 'User has a sister named Ana [user|sibling|Ana]'],
    ['My husband Marco plays the cello.', "User's husband is Marco [user|partner|Marco]"],
    [
      'My best friend Kofi just got engaged.',
      'User has a best friend named Kofi [user|friend|Kofi]',
    ],
    [
      'Our daughter, Mia, starts school in the fall.',
      'User has a daughter named Mia [user|child|Mia]',
    ],
    ['My coworker Jun sent me the slides.', 'User has a coworker named Jun [user|coworker|Jun]'],
    // whatever the verb after the name
    ['My brother Tom keeps borrowing my car.', 'User has a brother named Tom [user|sibling|Tom]'],
    ['Our son Leo wants a bike.', 'User has a son named Leo [user|child|Leo]'],
    ['My husband Marco is begging for a dog.', "User's husband is Marco [user|partner|Marco]"],
    // everyday words for a partner
    ['Me and my fella Cathal met in May.', "User's fella is Cathal [user|partner|Cathal]"],
    ['My other half, Priya, hates surprises.', "User's other half is Priya [user|partner|Priya]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(relativeNamed, sentence))).toEqual([expected]);
  });

  it.each([
    [
      'My sisters, Ana and Bea, are visiting.',
      [
        'User has a sister named Ana [user|sibling|Ana]',
        'User has a sister named Bea [user|sibling|Bea]',
      ],
    ],
    [
      'My kids Sam and Leo are fighting again.',
      ['User has a kid named Sam [user|child|Sam]', 'User has a kid named Leo [user|child|Leo]'],
    ],
    [
      'My parents, Carol, Jim and Ruth, are retired.',
      [
        'User has a parent named Carol [user|parent|Carol]',
        'User has a parent named Jim [user|parent|Jim]',
        'User has a parent named Ruth [user|parent|Ruth]',
      ],
    ],
  ])('everyone a plural noun names: %j', (sentence, expected) => {
    expect(brief(applyRule(relativeNamed, sentence))).toEqual(expected);
  });

  it.each(['My sister lives in Rome.', 'His brother Sam is a chef.'])('nothing from %j', (s) => {
    expect(applyRule(relativeNamed, s)).toEqual([]);
  });

  it('one name after a singular noun: "and Tom" may be anyone', () => {
    expect(brief(applyRule(relativeNamed, 'My sister Ana and Tom are visiting.'))).toEqual([
      'User has a sister named Ana [user|sibling|Ana]',
    ]);
  });

  it('in any wording the engine reads: lower case, a question after it', () => {
    expect(peopleIn('my son leo starts school tomorrow')).toEqual([
      'User has a son named Leo [user|child|Leo]',
    ]);
    expect(
      peopleIn(
        "my daughter Ines turns seven next week and she's begging for a dinosaur party, got any game ideas?",
      ),
    ).toEqual(['User has a daughter named Ines [user|child|Ines]']);
  });
});

describe('relativeIs', () => {
  it.each([
    ['My manager is Priya Raman.', "User's manager is Priya Raman [user|manager|Priya Raman]"],
    ['My dog is called Pepper.', 'User has a dog named Pepper [user|pet|Pepper]'],
    ['My mom is named Rosa.', 'User has a mom named Rosa [user|parent|Rosa]'],
    ["My boyfriend's name is Jake.", "User's boyfriend is Jake [user|partner|Jake]"],
    ["my dog's name is Rex", 'User has a dog named Rex [user|pet|Rex]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(relativeIs, sentence))).toEqual([expected]);
  });

  it.each([
    [
      'My older brothers are Declan and Ruairi.',
      [
        'User has a brother named Declan [user|sibling|Declan]',
        'User has a brother named Ruairi [user|sibling|Ruairi]',
      ],
    ],
    [
      'My kids are Sam, Ava and Leo.',
      [
        'User has a kid named Sam [user|child|Sam]',
        'User has a kid named Ava [user|child|Ava]',
        'User has a kid named Leo [user|child|Leo]',
      ],
    ],
    [
      'My cats are called Miso and Tofu.',
      ['User has a cat named Miso [user|pet|Miso]', 'User has a cat named Tofu [user|pet|Tofu]'],
    ],
  ])('one fact per name a plural noun lists: %j', (sentence, expected) => {
    expect(brief(applyRule(relativeIs, sentence))).toEqual(expected);
  });

  it.each([
    'My manager is on vacation.',
    'My sister is in Canada.',
    'My boss is great.',
    'My kids are Real Madrid fans.',
    'My parents are Irish.',
    "My son's school is closing.",
    "My sister's name is on the lease.",
    "My sister's boyfriend's name is Tom.",
  ])('nothing from %j', (s) => {
    expect(applyRule(relativeIs, s)).toEqual([]);
  });
});

describe('namedIsMy', () => {
  it.each([
    ['Priya is my manager.', "User's manager is Priya [user|manager|Priya]"],
    ['Sam is my best friend.', 'User has a best friend named Sam [user|friend|Sam]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(namedIsMy, sentence))).toEqual([expected]);
  });

  it.each(['Priya is my favorite author.', 'Sam is a friend of mine.'])('nothing from %j', (s) => {
    expect(applyRule(namedIsMy, s)).toEqual([]);
  });
});

describe('pronounIsMy', () => {
  it.each([
    [
      "I'll have to run it past Deirdre Okonkwo before it goes out, she's my line manager.",
      "User's line manager is Deirdre Okonkwo [user|manager|Deirdre Okonkwo]",
    ],
    [
      "I'm meeting Tom tomorrow, he's my brother.",
      'User has a brother named Tom [user|sibling|Tom]',
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(pronounIsMy, sentence))).toEqual([expected]);
  });

  it.each([
    // Someone else's words, a question, a supposition, a thing, no name before it.
    "Tom said she's my manager.",
    'Is she my manager?',
    "If I see Tom, he's my best man.",
    "I visited Paris, she's my favourite city.",
    "She's my manager.",
    "I met Anna at the gym, she isn't my trainer.",
  ])('nothing from %j', (s) => {
    expect(applyRule(pronounIsMy, s)).toEqual([]);
  });
});

describe('reportsTo', () => {
  it.each([
    [
      'I report to Rhiannon Price.',
      "User's manager is Rhiannon Price [user|manager|Rhiannon Price]",
    ],
    ['I answer to Mr Okafor now.', "User's manager is Mr Okafor [user|manager|Mr Okafor]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(reportsTo, sentence))).toEqual([expected]);
  });

  it.each([
    'I report to the board every quarter.',
    'We report to Dana on Fridays.',
    'Tom reports to Dana.',
    'Do I report to Dana or to Sam?',
  ])('no manager from %j', (s) => {
    expect(peopleIn(s).filter((f) => f.includes('|manager|'))).toEqual([]);
  });

  it('whom the user reports to, in brackets, and a team leader by name', () => {
    expect(peopleIn('Rhiannon (who I report to) wants objectives by Friday.')).toEqual([
      "User's manager is Rhiannon [user|manager|Rhiannon]",
    ]);
    expect(peopleIn('My team leader Fiona put me on the rota again.')).toEqual([
      "User's team leader is Fiona [user|manager|Fiona]",
    ]);
  });

  it("a couple's twins are their children, one's twin a sibling", () => {
    expect(peopleIn('Our twins Tobi and Kemi have an inset day on Monday.')).toEqual([
      'User has a twin named Tobi [user|child|Tobi]',
      'User has a twin named Kemi [user|child|Kemi]',
    ]);
    expect(peopleIn('My twin Sara lives in Oslo.')).toEqual([
      'User has a twin named Sara [user|sibling|Sara]',
    ]);
  });
});

describe('haveRelative', () => {
  it.each([
    ['I have a sister.', ['User has a sister [user|sibling|sister]']],
    [
      'I have two kids, Ana and Leo.',
      ['User has a kid named Ana [user|child|Ana]', 'User has a kid named Leo [user|child|Leo]'],
    ],
    ["I've got a brother named Tariq.", ['User has a brother named Tariq [user|sibling|Tariq]']],
    [
      'We have two kids, Ama who is 7 and Kwesi who is 4.',
      [
        'User has a kid named Ama [user|child|Ama]',
        "User's kid Ama is 7 years old [user's kid ama|age|7]",
        'User has a kid named Kwesi [user|child|Kwesi]',
        "User's kid Kwesi is 4 years old [user's kid kwesi|age|4]",
      ],
    ],
    [
      'I have a brother named Tom and a sister called Ana.',
      [
        'User has a brother named Tom [user|sibling|Tom]',
        'User has a sister named Ana [user|sibling|Ana]',
      ],
    ],
    [
      "I've got three kids: Sam, Ava and Leo.",
      [
        'User has a kid named Sam [user|child|Sam]',
        'User has a kid named Ava [user|child|Ava]',
        'User has a kid named Leo [user|child|Leo]',
      ],
    ],
    [
      'I have a sister and two brothers.',
      [
        'User has a sister [user|sibling|sister]',
        'User has two brothers [user|sibling|two brothers]',
      ],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(haveRelative, sentence))).toEqual(expected);
  });

  it.each(['I have a cat.', 'I have no siblings.', 'She has a brother.'])(
    'nothing from %j',
    (s) => {
      expect(applyRule(haveRelative, s)).toEqual([]);
    },
  );
});

describe('married', () => {
  it.each([
    ["I'm married to Alex.", "User's partner is Alex [user|partner|Alex]"],
    ['I got engaged to Noor last weekend.', "User's fiance is Noor [user|partner|Noor]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(married, sentence))).toEqual([expected]);
  });

  it.each(["I'm married.", 'My sister is married to Tom.'])('nothing from %j', (s) => {
    expect(applyRule(married, s)).toEqual([]);
  });
});

describe('relativeMentioned', () => {
  it.each([
    [
      'Went bouldering with my flatmate Kofi.',
      ['User has a flatmate named Kofi [user|friend|Kofi]'],
    ],
    [
      "Lunch at my sister Noor's place was lovely.",
      ['User has a sister named Noor [user|sibling|Noor]'],
    ],
    [
      'I was up all night with our baby Esme and my husband Tariq.',
      [
        'User has a baby named Esme [user|child|Esme]',
        "User's husband is Tariq [user|partner|Tariq]",
      ],
    ],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(relativeMentioned, text))).toEqual(expected);
  });

  it.each([
    'I talked to my boss about it.',
    'I met my sister on Monday.',
    'I went with my friend.',
    'Their friend Kofi came too.',
  ])('nothing from %j', (text) => {
    expect(applyRule(relativeMentioned, text)).toEqual([]);
  });

  it.each([
    [
      'Me and my brothers Declan and Ruairi went climbing.',
      [
        'User has a brother named Declan [user|sibling|Declan]',
        'User has a brother named Ruairi [user|sibling|Ruairi]',
      ],
    ],
    ['me and my girlfriend lucy went to paris', ["User's girlfriend is Lucy [user|partner|Lucy]"]],
  ])('the engine reads everyone named in %j', (text, expected) => {
    expect(peopleIn(text)).toEqual(expected);
  });

  it.each([
    "My daughter's teacher Mrs Brown is lovely.",
    "My brother-in-law's dog Rex is huge.",
    "We went to my friend's son Leo's party.",
  ])("someone else's person is not the relative's name: %j", (text) => {
    expect(peopleIn(text)).toEqual([]);
  });
});

describe('relativeTakenForGranted', () => {
  it.each([
    [
      "my daughter Ines turns seven next week and she's begging for a dinosaur party, got any game ideas?",
      ['User has a daughter named Ines [user|child|Ines]'],
    ],
    [
      'What should I get my brother Tom for his birthday?',
      ['User has a brother named Tom [user|sibling|Tom]'],
    ],
    ["If my son Leo doesn't nap, he gets cranky.", ['User has a son named Leo [user|child|Leo]']],
    ['Would my wife Lucia like a Kindle?', ["User's wife is Lucia [user|partner|Lucia]"]],
    [
      'Any ideas for my kids Sam and Ava?',
      ['User has a kid named Sam [user|child|Sam]', 'User has a kid named Ava [user|child|Ava]'],
    ],
    [
      'Write a bedtime story for my daughter Ines.',
      ['User has a daughter named Ines [user|child|Ines]'],
    ],
    // "call" a brother is a phone call: only children and pets are given names.
    [
      'Should I call my brother Tom or text him?',
      ['User has a brother named Tom [user|sibling|Tom]'],
    ],
  ])('the engine reads %j', (text, expected) => {
    expect(peopleIn(text)).toEqual(expected);
  });

  it.each([
    'Is your daughter Ines?',
    'Should we name our son Leo?',
    'What if I called my cat Miso?',
    'If I had a brother named Tom, would he like me?',
    'How old is her son Leo?',
    "What should I get my friend's son Leo?",
    'Why does my parent App component re-render?',
    'How do I kill my child process?',
    'my child process keeps dying',
  ])('nothing from %j', (text) => {
    expect(peopleIn(text)).toEqual([]);
    expect(applyRule(relativeTakenForGranted, text)).toEqual([]);
  });
});

describe('roleNamed', () => {
  let words: WordVectors;
  beforeAll(async () => {
    words = loadWordVectors(await ensureWordVectorAsset());
  });
  const read = (text: string, vectors: WordVectors | null) =>
    analyse(text)
      .flatMap((s) => clausesOf(s))
      .flatMap((c) => roleNamed(c, { at: 0, greeted: false, words: vectors }));

  it('a role that means a boss is the manager', () => {
    expect(brief(read('My department head, Ms Varga, signs the rota.', words))).toEqual([
      "User's department head is Ms Varga [user|manager|Ms Varga]",
    ]);
  });

  it('a role with no clear kind of person, or no word vectors yet, stays untyped', () => {
    expect(brief(read('My cousin, Dario, is visiting next month.', words))).toEqual([
      "User's cousin is Dario [user|-|Dario]",
    ]);
    expect(brief(read('My department head, Ms Varga, signs the rota.', null))).toEqual([
      "User's department head is Ms Varga [user|-|Ms Varga]",
    ]);
  });

  it.each([
    'My laptop is dying.',
    'My boss Ana is away.',
    'Our flight, on Friday, is early.',
    'My parent component App re-renders twice.',
    'Our sister company Acme pays better.',
  ])('nothing from %j', (text) => {
    expect(read(text, words)).toEqual([]);
  });
});
