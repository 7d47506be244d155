import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import { bracketedRole, nameEqualsRole, namedAsRole } from './asides.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** As the distiller reads a message: every engine filter, word meaning loaded. */
const facts = (text: string) => brief(extractFacts(text, { at: SAID_AT, words }));

describe('bracketedRole', () => {
  it.each([
    [
      'Siobhán (the boss) has volunteered me to run the retro.',
      "User's boss is Siobhán [user|manager|Siobhán]",
    ],
    ['Mum (Ana) turns 60 next month.', 'User has a mum named Ana [user|parent|Ana]'],
    ['Marco (the husband) wants to cook tonight.', "User's husband is Marco [user|partner|Marco]"],
    ['Jess (gf) and I are moving in together.', "User's gf is Jess [user|partner|Jess]"],
    [
      'Nadia (elder sis) is getting married.',
      'User has an elder sis named Nadia [user|sibling|Nadia]',
    ],
    ['My brother (Sam) just got a puppy.', 'User has a brother named Sam [user|sibling|Sam]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(bracketedRole, sentence))).toEqual([expected]);
  });

  it('a role with several names: each is one fact', () => {
    expect(
      brief(applyRule(bracketedRole, 'the rabbits (Bun and Clover) were loud all night')),
    ).toEqual([
      'User has a rabbit named Bun [user|pet|Bun]',
      'User has a rabbit named Clover [user|pet|Clover]',
    ]);
  });

  it.each([
    // someone else's people
    'Tom said his wife (Ana) is a nurse.',
    'Her boss (Priya) called twice.',
    "Tom's sister (Ana) is visiting.",
    // a bracket that names no kind of person
    'Kasia (Leeds) rang me.',
    'Ana (finally) called back.',
    'the release (v2) ships Friday',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(bracketedRole, sentence)).toEqual([]);
  });

  it.each([
    'Is Ana (my mum) coming to lunch?',
    'If Siobhán (the boss) asks, say I am out.',
    'Tom said his boss (Priya) quit.',
  ])('the engine keeps %j out', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it('a question after a dash is its own segment: the statement before it still counts', () => {
    expect(facts('Mum (Ana) turns 60 next month — can you help me plan a lunch?')).toEqual([
      'User has a mum named Ana [user|parent|Ana]',
    ]);
  });
});

describe('nameEqualsRole', () => {
  it.each([
    ['(Biscuit = the cat, for the record)', 'User has a cat named Biscuit [user|pet|Biscuit]'],
    ['Gerald = my brother, btw', 'User has a brother named Gerald [user|sibling|Gerald]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(nameEqualsRole, sentence))).toEqual([expected]);
  });

  it.each(['x = the total', 'Revenue = the price times units'])('nothing from %j', (s) => {
    expect(applyRule(nameEqualsRole, s)).toEqual([]);
  });
});

describe('namedAsRole', () => {
  it.each([
    [
      'Ingrid approves all our deploys as team lead.',
      "User's team lead is Ingrid [user|manager|Ingrid]",
    ],
    ['Sam approves my leave requests as my manager.', "User's manager is Sam [user|manager|Sam]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(namedAsRole, sentence))).toEqual([expected]);
  });

  it.each([
    'Sam works as a nurse.',
    'Ana dressed up as a cat.',
    'I approve the deploys as team lead.',
    'Tom joined as his manager.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(namedAsRole, sentence)).toEqual([]);
  });
});

describe('a child named by their place among the children', () => {
  it('"my oldest, Xiomara, got ..." names the oldest child', () => {
    expect(facts('My oldest, Ines, got her learner’s permit yesterday.')).toEqual([
      "User's oldest child is Ines [user|child|Ines]",
    ]);
  });
});
