import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { age, birthday, name } from './identity.ts';

describe('name', () => {
  it.each([
    ['My name is Dana Ruiz.', false, "User's name is Dana Ruiz [user|name|Dana Ruiz]"],
    ['Call me Dee.', false, "User's name is Dee [user|name|Dee]"],
    ['I go by Sam.', false, "User's name is Sam [user|name|Sam]"],
    ['I am Dana, nice to meet you.', true, "User's name is Dana [user|name|Dana]"],
  ])('%j', (sentence, greeted, expected) => {
    const facts = applyRule(name, sentence, greeted);
    expect(brief(facts)).toEqual([expected]);
    expect(facts[0]!.identity).toBe(true);
  });

  it.each(['I am Dana.', 'I am Canadian.', 'My name is on the list.'])(
    'nothing without a greeting or a name from %j',
    (s) => {
      expect(applyRule(name, s)).toEqual([]);
    },
  );
});

describe('age', () => {
  it.each([
    ["I'm 34.", 'User is 34 years old [user|age|34]'],
    ['I am 61 years old.', 'User is 61 years old [user|age|61]'],
    ['I just turned 40!', 'User is 40 years old [user|age|40]'],
    // A relative's age: by name when named, so two children's ages stand side by side.
    ['My son is 7.', "User's son is 7 years old [user's son|age|7]"],
    ['My son Luca is 4.', "User's son Luca is 4 years old [user's son luca|age|4]"],
    // in words, as people write ages
    [
      'My daughter Ines turns seven next week.',
      "User's daughter Ines is 7 years old [user's daughter ines|age|7]",
    ],
    ['My dad is seventy-two and still cycles.', "User's dad is 72 years old [user's dad|age|72]"],
    ['I turned forty in March.', 'User is 40 years old [user|age|40]'],
    // an introduction: the age after the name
    ["Hi, I'm Dana, 34, and I want a new career.", 'User is 34 years old [user|age|34]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(age, sentence))).toEqual([expected]);
  });

  it.each([
    'I am 5 minutes away.',
    'I have 3 kids.',
    'My son is 7 minutes late.',
    // several people have no one age
    'My kids are 7 and 4.',
    "I'm one of three kids.",
    "I'm one of the organisers.",
    "I'm Dana, 34 of us are coming.",
    "I'm Dana, and I'm new here.",
  ])('nothing from %j', (s) => {
    expect(applyRule(age, s)).toEqual([]);
  });
});

describe('birthday', () => {
  it.each([
    [
      'My birthday is on August 14, so I want to save a bit.',
      "User's birthday is August 14 [user|birthday|August 14]",
    ],
    [
      "my birthday's the 21st of March",
      "User's birthday is 21st of March [user|birthday|21st of March]",
    ],
    ['I was born on 3 May 1990.', "User's birthday is 3 May 1990 [user|birthday|3 May 1990]"],
    // a relative's: theirs, so it never supersedes the user's own
    [
      "My sister's birthday is June 3rd.",
      "User's sister's birthday is June 3rd [user's sister|birthday|June 3rd]",
    ],
  ])('%j', (sentence, expected) => {
    const facts = applyRule(birthday, sentence);
    expect(brief(facts)).toEqual([expected]);
    // The day is the birthday's, not the date the fact became true.
    expect(facts[0]!.timeless).toBe(true);
  });

  it.each([
    'My birthday is not on May 4.',
    'My birthday party is at the bowling alley.',
    'I was born in Leeds.',
    'His birthday is June 3rd.',
    'My birthday is coming up soon.',
  ])('nothing from %j', (s) => {
    expect(applyRule(birthday, s)).toEqual([]);
  });
});
