import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { petOwned } from './pets.ts';

describe('petOwned', () => {
  it.each([
    ['We adopted a beagle named Biscuit.', ['User has a beagle named Biscuit [user|pet|Biscuit]']],
    [
      'I have two cats, Miso and Tofu.',
      ['User has a cat named Miso [user|pet|Miso]', 'User has a cat named Tofu [user|pet|Tofu]'],
    ],
    ['We got a puppy last week.', ['User got a puppy [user|pet|puppy]']],
    ['I have a parrot.', ['User has a parrot [user|pet|parrot]']],
    [
      'We brought home a rescue collie called Moss.',
      ['User has a collie named Moss [user|pet|Moss]'],
    ],
    ['Brought home a kitten today!', ['User brought home a kitten [user|pet|kitten]']],
    ["We've got chickens now.", ['User has a chicken [user|pet|chicken]']],
    [
      'We have a dog called Rex and a cat called Tom.',
      ['User has a dog named Rex [user|pet|Rex]', 'User has a cat named Tom [user|pet|Tom]'],
    ],
    [
      'I have two cats, Miso and Tofu, and a dog named Rex.',
      [
        'User has a cat named Miso [user|pet|Miso]',
        'User has a cat named Tofu [user|pet|Tofu]',
        'User has a dog named Rex [user|pet|Rex]',
      ],
    ],
    [
      'I have a brother named Tom and a dog named Rex.',
      ['User has a dog named Rex [user|pet|Rex]'],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(petOwned, sentence))).toEqual(expected);
  });

  it.each([
    'I have no pets.',
    'My neighbor has a dog.',
    'We adopted a new policy.',
    'I brought home some groceries.',
    "I've got leftover roast chicken, what's quick?",
    'We have some lamb in the freezer.',
  ])('nothing from %j', (s) => {
    expect(applyRule(petOwned, s)).toEqual([]);
  });
});
