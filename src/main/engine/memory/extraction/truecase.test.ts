import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWordVectorAsset } from '../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../vector/word-vectors.ts';
import { extractFacts } from './extract.ts';
import { analyse, normaliseText } from './nlp.ts';
import { truecase, uncased } from './truecase.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** The words truecase capitalised in a one-sentence message. */
function named(text: string): string[] {
  const s = analyse(text)[0]!;
  const after = truecase(s, words);
  return after.toks.filter((t, i) => t.text !== s.toks[i]!.text).map((t) => t.text);
}

describe('truecase', () => {
  it.each([
    ['my flatmate rohan keeps leaving dishes out', ['Rohan']],
    ['my hubby raj turns forty soon', ['Raj']],
    ['we got a kitten named pickle', ['Pickle']],
    ['finally relocating to edinburgh for good', ['Edinburgh']],
    ['my cousin is from portugal originally', ['Portugal']],
  ])('%j → %j', (text, expected) => {
    expect(named(text)).toEqual(expected);
  });

  it.each([
    'heading to work early today',
    'stuck in town all afternoon',
    'back to college next week',
    'my brother cooks a lot',
    'my sister really likes it',
  ])('nothing in %j', (text) => {
    expect(named(text)).toEqual([]);
  });

  it('leaves a writer who capitalises alone', () => {
    const s = analyse('My flatmate from Leeds visited home.')[0]!;
    expect(uncased(s.toks)).toBe(false);
    expect(truecase(s, words)).toBe(s);
  });

  it.each([
    ['what should i get my brother tom for his birthday?', ['Tom']],
    ['My son leo starts school in September', ['Leo']],
    ['My mate tom from Leeds visited.', ['Tom']],
    ['we took my sister grace out for dinner', ['Grace']],
    // frequent words that are mostly names
    ['my brother james is coming over', ['James']],
    ['i saw my brother mark yesterday', ['Mark']],
  ])('%j: a name after a kind of person, by meaning, whatever follows → %j', (text, expected) => {
    expect(named(text)).toEqual(expected);
  });

  it.each([
    'I drove my mum home after lunch',
    'give my brother time to settle in',
    'My daughter college fund is growing',
    'I walked my son to school today',
    // an everyday word and a plural are what is sent, not a name
    'send my mum love',
    'send my mum love from Lisbon',
    'send my nan flowers',
  ])('no name after a kind of person in %j', (text) => {
    expect(named(text)).toEqual([]);
  });

  it('reads a name after a kind of person only with word meaning', () => {
    const s = analyse('what should i get my brother tom for his birthday?')[0]!;
    expect(truecase(s, null)).toBe(s);
  });

  it('lets the rules read a relative named in a question', () => {
    const facts = extractFacts('what should i get my brother tom for his birthday?', {
      at: Date.UTC(2024, 4, 2),
      words,
    });
    expect(facts.map((f) => `${f.subject}|${f.relation}|${f.object}`)).toEqual([
      'user|sibling|Tom',
    ]);
  });

  it('lets the rules read names a lower-case writer typed', () => {
    const facts = extractFacts('my gf lucia just moved to leeds', {
      at: Date.UTC(2024, 4, 2),
      words,
    });
    expect(facts.map((f) => `${f.subject}|${f.relation}|${f.object}`)).toEqual(
      expect.arrayContaining(['user|partner|Lucia']),
    );
  });
});

describe('chat spellings', () => {
  it.each([
    ['im tired', 'I am tired'],
    ['ive got a cat', 'I have got a cat'],
    ['i dont eat fish', "I don't eat fish"],
    ['cant sleep', "can't sleep"],
  ])('%j → %j', (text, expected) => {
    expect(normaliseText(text)).toBe(expected);
  });

  it.each(['my id card', 'the time came', 'a wont to wander'])('%j unchanged', (text) => {
    expect(normaliseText(text)).toBe(text);
  });
});

describe('left-out subjects in chat', () => {
  const at = Date.UTC(2024, 4, 2);
  const facts = (text: string) =>
    extractFacts(text, { at, words }).map((f) => `${f.subject}|${f.relation}|${f.object}`);

  it('reads "been" with a complement as the writer\'s perfect', () => {
    expect(facts('been vegan since uni, any good cheese swaps?')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^user\|diet\|vegan/)]),
    );
  });

  it('reads an -ing word before "to" and a verb as the verb of the clause', () => {
    const s = analyse('hoping to learn welsh this year')[0]!;
    expect(s.toks[0]!.pos).toBe('VERB');
  });

  it.each(['my training to be a pilot was hard', 'the building to the left is old'])(
    'keeps the noun in %j',
    (text) => {
      const s = analyse(text)[0]!;
      expect(s.toks[1]!.pos).toBe('NOUN');
    },
  );
});
