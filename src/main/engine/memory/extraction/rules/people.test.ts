import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { haveRelative, married, namedIsMy, relativeIs, relativeNamed } from './people.ts';

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
