import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { comesFrom, livesIn, movedTo } from './places.ts';

describe('livesIn', () => {
  it.each([
    ['I live in Lisbon.', 'User lives in Lisbon [user|lives_in|Lisbon]'],
    [
      "I'm based in Austin, Texas these days.",
      'User lives in Austin, Texas [user|lives_in|Austin, Texas]',
    ],
    ['My sister lives in Rome.', "User's sister lives in Rome [user's sister|lives_in|Rome]"],
    ['I lived in Berlin for six years.', 'User lived in Berlin [user|lives_in|Berlin|ended]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(livesIn, sentence))).toEqual([expected]);
  });

  it.each([
    'I live in hope.',
    'I live with my parents.',
    'Tom lives in Paris.',
    'They live in Oslo.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(livesIn, sentence)).toEqual([]);
  });

  it('is an identity fact for the user, not for a relative', () => {
    expect(applyRule(livesIn, 'I live in Ghent.')[0]?.identity).toBe(true);
    expect(applyRule(livesIn, 'My dad lives in Ghent.')[0]?.identity).toBe(false);
  });
});

describe('movedTo', () => {
  it.each([
    ['I moved to Lisbon in March.', 'User moved to Lisbon [user|lives_in|Lisbon]'],
    [
      'We relocated to Vancouver after the wedding.',
      'User moved to Vancouver [user|lives_in|Vancouver]',
    ],
    ["We're moving to Porto next month.", 'User is moving to Porto [user|plans|move to Porto]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(movedTo, sentence))).toEqual([expected]);
  });

  it.each([
    'We no longer use Jenkins; we moved to GitHub Actions.',
    'I moved the meeting to Friday.',
    'Tom moved to Rome.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(movedTo, sentence)).toEqual([]);
  });
});

describe('comesFrom', () => {
  it.each([
    ["I'm from Porto originally.", 'User is from Porto [user|from|Porto]'],
    ['I grew up in Leeds.', 'User is from Leeds [user|from|Leeds]'],
    ['My mom comes from Manila.', "User's mom is from Manila [user's mom|from|Manila]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(comesFrom, sentence))).toEqual([expected]);
  });

  it.each(['I am from the future.', 'That email is from Dana.'])('nothing from %j', (sentence) => {
    expect(applyRule(comesFrom, sentence)).toEqual([]);
  });
});

describe('movedTo: settling in', () => {
  it.each([
    ['Settling into Bristol nicely.', 'User is settling into Bristol [user|lives_in|Bristol]'],
    ['We settled in Galway last year.', 'User settled in Galway [user|lives_in|Galway]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(movedTo, text))).toEqual([expected]);
  });

  it.each(["We're settling into the new routine.", 'I settled the bill.'])(
    'nothing from %j',
    (text) => {
      expect(applyRule(movedTo, text)).toEqual([]);
    },
  );
});
