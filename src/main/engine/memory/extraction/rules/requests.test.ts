import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { avoidRequest } from './requests.ts';

describe('avoidRequest', () => {
  it.each([
    [
      'Please never put olives on my pizza orders.',
      "User doesn't want olives on their pizza orders [user|dislikes|olives]",
    ],
    [
      "Don't ever suggest recipes with mushrooms, please.",
      "User doesn't want recipes with mushrooms [user|dislikes|mushrooms]",
    ],
    ['Never book me aisle seats.', null],
    ['never recommend Java to me', "User doesn't want Java [user|dislikes|Java]"],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(avoidRequest, text))).toEqual(expected ? [expected] : []);
  });

  it.each([
    "Please don't use bullet points in this answer.",
    'Put the onions in first.',
    'Please add more detail.',
    'I never put sugar in tea.',
    "Don't ever do that again.",
    'Never mind.',
  ])('nothing from %j', (text) => {
    expect(applyRule(avoidRequest, text)).toEqual([]);
  });
});
