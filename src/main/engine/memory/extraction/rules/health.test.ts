import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { allergy, diet, healthCondition, sensitivity } from './health.ts';

describe('diet', () => {
  it.each([
    ["I'm vegan.", 'User is vegan [user|diet|vegan]'],
    ["I've been vegetarian since 2019.", 'User is vegetarian [user|diet|vegetarian]'],
    ["I'm on a keto diet.", 'User is keto [user|diet|keto]'],
    ["I don't eat meat.", "User doesn't eat meat [user|diet|no meat]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(diet, sentence))).toEqual([expected]);
  });

  it.each(["I'm hungry.", "I don't eat breakfast.", 'My cat is vegan.'])('nothing from %j', (s) => {
    expect(applyRule(diet, s)).toEqual([]);
  });
});

describe('allergy', () => {
  it.each([
    [
      "I'm allergic to shellfish and peanuts.",
      [
        'User is allergic to shellfish [user|allergy|shellfish]',
        'User is allergic to peanuts [user|allergy|peanuts]',
      ],
    ],
    ['My son is allergic to eggs.', ["User's son is allergic to eggs [user's son|allergy|eggs]"]],
    ["I'm lactose intolerant.", ['User is lactose intolerant [user|allergy|lactose]']],
    ['I have a nut allergy.', ['User has a nut allergy [user|allergy|nut]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(allergy, sentence))).toEqual(expected);
  });

  it.each(["I'm not allergic to anything.", 'Is she allergic to cats?'])('nothing from %j', (s) => {
    expect(applyRule(allergy, s).filter((f) => f.subject === 'user')).toEqual([]);
  });
});

describe('healthCondition', () => {
  it.each([
    ['I have celiac disease.', 'User has celiac disease [user|health|celiac disease]'],
    ['I was diagnosed with asthma in 2015.', 'User was diagnosed with asthma [user|health|asthma]'],
    ['I have a bad knee.', 'User has a bad knee [user|health|bad knee]'],
    ["I'm pregnant!", 'User is pregnant [user|health|pregnant]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(healthCondition, sentence))).toEqual([expected]);
  });

  it.each(['I have a meeting.', 'I have two kids.', "I don't have diabetes."])(
    'nothing from %j',
    (s) => {
      expect(applyRule(healthCondition, s)).toEqual([]);
    },
  );
});

describe('sensitivity', () => {
  it.each([
    ['Coffee makes me jittery.', 'Coffee makes User jittery [user|health|coffee]'],
    ['Dairy makes me bloated.', 'Dairy makes User bloated [user|health|dairy]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(sensitivity, sentence))).toEqual([expected]);
  });

  it.each([
    'Music makes him calm.',
    'I make coffee every morning.',
    "Coffee doesn't make me jittery.",
  ])('nothing from %j', (s) => {
    expect(applyRule(sensitivity, s)).toEqual([]);
  });
});

describe('diet: "doing" a diet', () => {
  it('"I\'m doing paleo these days"', () => {
    expect(brief(applyRule(diet, "I'm doing paleo these days."))).toEqual([
      'User does paleo [user|diet|paleo]',
    ]);
  });

  it('nothing from "I\'m doing the cooking"', () => {
    expect(applyRule(diet, "I'm doing the cooking.")).toEqual([]);
  });
});
