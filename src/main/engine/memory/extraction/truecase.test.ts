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
    const s = analyse('My mate tom from Leeds visited.')[0]!;
    expect(uncased(s.toks)).toBe(false);
    expect(truecase(s, words)).toBe(s);
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
