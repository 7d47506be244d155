import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf } from '../clause.ts';
import { analyse } from '../nlp.ts';
import {
  haveRelative,
  married,
  namedIsMy,
  relativeIs,
  relativeMentioned,
  relativeNamed,
  roleNamed,
} from './people.ts';

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
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(relativeNamed, sentence))).toEqual([expected]);
  });

  it.each(['My sister lives in Rome.', 'His brother Sam is a chef.'])('nothing from %j', (s) => {
    expect(applyRule(relativeNamed, s)).toEqual([]);
  });
});

describe('relativeIs', () => {
  it.each([
    ['My manager is Priya Raman.', "User's manager is Priya Raman [user|manager|Priya Raman]"],
    ['My dog is called Pepper.', 'User has a dog named Pepper [user|pet|Pepper]'],
    ['My mom is named Rosa.', 'User has a mom named Rosa [user|parent|Rosa]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(relativeIs, sentence))).toEqual([expected]);
  });

  it.each(['My manager is on vacation.', 'My sister is in Canada.', 'My boss is great.'])(
    'nothing from %j',
    (s) => {
      expect(applyRule(relativeIs, s)).toEqual([]);
    },
  );
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

  it.each(['My laptop is dying.', 'My boss Ana is away.', 'Our flight, on Friday, is early.'])(
    'nothing from %j',
    (text) => {
      expect(read(text, words)).toEqual([]);
    },
  );
});
