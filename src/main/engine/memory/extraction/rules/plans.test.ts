import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { plans, travel } from './plans.ts';

describe('travel', () => {
  it.each([
    [
      "I'm flying to Tokyo on the 14th of June.",
      'User is planning a trip to Tokyo [user|travel|Tokyo]',
    ],
    [
      "We're taking a road trip to Utah in August.",
      'User is planning road trip to Utah [user|travel|Utah]',
    ],
    ['We went to Crete last summer.', 'User went on a trip to Crete [user|travel|Crete]'],
    ["I'll be in Berlin next week.", 'User is planning a trip to Berlin [user|travel|Berlin]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(travel, sentence))).toEqual([expected]);
  });

  it.each(['I went to the store.', 'I was in Berlin.', "I'm not going to Rome."])(
    'nothing from %j',
    (s) => {
      expect(applyRule(travel, s)).toEqual([]);
    },
  );
});

describe('plans', () => {
  it.each([
    [
      "I'm going to repaint the kitchen next month.",
      'User plans to repaint the kitchen [user|plans|repaint the kitchen]',
    ],
    [
      'I plan to run a half marathon.',
      'User plans to run a half marathon [user|plans|run a half marathon]',
    ],
    [
      'We decided to use Postgres for the backend.',
      'User decided to use Postgres for the backend [user|plans|use Postgres for the backend]',
    ],
    ['I have a job interview on Friday.', 'User has a job interview [user|plans|job interview]'],
    // A bare "will" with a date is a plan.
    [
      "I'll repaint the kitchen in March.",
      'User plans to repaint the kitchen [user|plans|repaint the kitchen]',
    ],
    // A future progressive: "will be teaching", not "plans to teaching".
    [
      "I'll be teaching at St Aidan's College.",
      "User will be teaching at St Aidan's College [user|plans|teaching at St Aidan's College]",
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(plans, sentence))).toEqual([expected]);
  });

  it('marks a decision', () => {
    expect(applyRule(plans, 'We decided to adopt trunk-based development.')[0]?.decision).toBe(
      true,
    );
    expect(applyRule(plans, 'I plan to sell my car.')[0]?.decision).toBe(false);
  });

  it.each([
    "I'll be fine.",
    'I have a meeting.',
    'I repainted the kitchen.',
    // The next step of the task at hand, not a plan.
    "I'll do the list comprehension then.",
    "I'll make soup after.",
    "Thanks, I'll try that.",
  ])('nothing from %j', (s) => {
    expect(applyRule(plans, s)).toEqual([]);
  });
});

describe('travel: a place "done" over a holiday', () => {
  it('"doing Rome over Easter" is a trip', () => {
    expect(brief(applyRule(travel, "We're doing Rome over Easter."))).toEqual([
      'User is planning a trip to Rome [user|travel|Rome]',
    ]);
  });

  it.each(["We're doing React this week.", "I'm doing Duolingo every day."])(
    'nothing from %j',
    (text) => {
      expect(applyRule(travel, text)).toEqual([]);
    },
  );
});
