import { beforeAll, describe, expect, it } from 'vitest';
import { brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf } from '../clause.ts';
import type { TypedFact } from '../fact.ts';
import { analyse } from '../nlp.ts';
import { plainStatement } from './statements.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

const read = (text: string, vectors: WordVectors | null = words): TypedFact[] =>
  analyse(text)
    .flatMap((s) => clausesOf(s))
    .flatMap((c) => plainStatement(c, { at: SAID_AT, greeted: false, words: vectors }));

describe('plainStatement', () => {
  it.each([
    ['I keep my recipes in Notion.', 'User keeps their recipes in Notion [user|-|Notion]'],
    ['I do my budgeting in YNAB.', 'User does their budgeting in YNAB [user|-|YNAB]'],
    [
      'Tuned up my old violin last night.',
      'User tuned up their old violin last night [user|instrument|old violin]',
    ],
    ['We finally sold our motorbike.', 'User sold their motorbike [user|vehicle|motorbike]'],
    [
      'The physio says my hamstring is tight.',
      "User's hamstring is tight (their physio says so) [user|health|hamstring]",
    ],
    ["I'm one of the founders of Acme.", 'User is one of the founders of Acme [user|-|Acme]'],
  ])('%j', (text, expected) => {
    expect(brief(read(text))).toEqual([expected]);
  });

  it.each([
    'Emptied the dishwasher and took the bins out.',
    'I answered forty emails before lunch.',
    'I think the plan is fine.',
    'I want a Nintendo Switch.',
    'Python is great.',
    'He bought a Tesla.',
    'My sister says my cooking is bland.',
    'My knee hurts.',
    "I'm one of three kids.",
    "I'm one of 3 kids.",
    "I'm the youngest of three.",
    "I'm the eldest of four siblings.",
    "I'm the middle child of five.",
    "I'm the youngest of my siblings.",
  ])('nothing from %j', (text) => {
    expect(read(text)).toEqual([]);
  });

  it('keeps a place in the family when someone is named with it', () => {
    expect(brief(read("I'm the youngest of three, with two older brothers Tom and Sam."))).toEqual([
      'User is the youngest of three, with two older brothers Tom and Sam [user|sibling|Tom]',
    ]);
  });

  it('is skipped while the word vectors are not loaded', () => {
    expect(read('I keep my recipes in Notion.', null)).toEqual([]);
  });
});
