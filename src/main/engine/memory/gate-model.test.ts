import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateData } from '../../../../bench/gate-data.ts';
import { loadWordVectors } from '../vector/word-vectors.ts';
import { ensureWordVectorAsset } from '../../../../test/helpers/word-vectors.ts';
import { classifyHeuristic, nameSet, SHIPPED_MODEL } from './gate.ts';
import { RELATIONS } from '../text/relations.ts';
import {
  gateFeatures,
  MEANING_FEATURES,
  meaningFeatures,
  type MeaningSource,
  personalProbability,
  SHIPPED_GATE_MODELS,
  trainGateModel,
  TRAINING,
  type TrainingExample,
} from './gate-model.ts';

const words = loadWordVectors(await ensureWordVectorAsset());

const ctx = { knownNames: nameSet([]) };

describe('gate model features', () => {
  it('are the lower-cased words and each pair of words in a row, once each', () => {
    expect(gateFeatures('What’s MY dog called? my dog')).toEqual([
      "what's",
      "what's my",
      'my',
      'my dog',
      'dog',
      'dog called',
      'called',
      'called ?',
      '?',
      '? my',
    ]);
    expect(gateFeatures('')).toEqual([]);
    expect(gateFeatures('Café? ¿Sí!')).toEqual(['café', 'café ?', '?', '? sí', 'sí', 'sí !', '!']);
  });
});

describe('personalProbability', () => {
  it('is the logistic of the bias plus the weights of the features present', () => {
    const model = { bias: -1, weights: { my: 2, 'my dog': 1, cat: -3 } };
    expect(personalProbability('my dog', model)).toBeCloseTo(1 / (1 + Math.exp(-2)), 10);
    expect(personalProbability('a cat', model)).toBeCloseTo(1 / (1 + Math.exp(4)), 10);
    expect(personalProbability('nothing known', model)).toBeCloseTo(1 / (1 + Math.exp(1)), 10);
  });
});

describe('meaningFeatures', () => {
  /** Word vectors of two dimensions that know "tea" and one relation. */
  const source = (vector: Float32Array | null, relation: number | null): MeaningSource => ({
    embedText: () => vector,
    relationsFor: () => (relation === null ? [] : [{ score: relation }, { score: 0.1 }]),
  });

  it('are the averaged word vector, scaled, then the best relation score, scaled', () => {
    const f = meaningFeatures(source(new Float32Array([0.6, -0.8]), 0.5), 'green tea');
    expect(f).toHaveLength(MEANING_FEATURES);
    expect(f[0]).toBeCloseTo(0.6 * 6, 5);
    expect(f[1]).toBeCloseTo(-0.8 * 6, 5);
    expect([...f.slice(2, 100)].every((x) => x === 0)).toBe(true);
    expect(f[100]).toBeCloseTo(0.5 * 18, 5);
  });

  it('are zeros for words the vectors do not know', () => {
    expect([...meaningFeatures(source(null, null), 'zxq wvv')].every((x) => x === 0)).toBe(true);
  });

  it('come from the real word vectors as the gate hears a message', () => {
    const f = meaningFeatures(words, 'What is my usual beverage?');
    const v = words.embedText('What is my usual beverage?') as Float32Array;
    expect(f[0]).toBeCloseTo((v[0] as number) * 6, 5);
    expect(f[100]).toBeCloseTo(
      (words.relationsFor('What is my usual beverage?', 0)[0]?.score ?? 0) * 18,
      5,
    );
  });
});

describe('personalProbability with meaning', () => {
  const meaning = new Float32Array(MEANING_FEATURES);
  meaning[0] = 2;
  meaning[100] = 3;
  const weights = new Array<number>(MEANING_FEATURES).fill(0);
  weights[0] = 0.5;
  weights[100] = -1;

  it('adds the meaning weights times the features to the words', () => {
    const model = { bias: -1, weights: { my: 2 }, meaning: weights };
    expect(personalProbability('my tea', model, meaning)).toBeCloseTo(
      1 / (1 + Math.exp(-(-1 + 2 + 0.5 * 2 - 3))),
      10,
    );
  });

  it('reads the words alone without features, or for a model without meaning weights', () => {
    const words1 = 1 / (1 + Math.exp(-1));
    expect(
      personalProbability('my tea', { bias: -1, weights: { my: 2 }, meaning: weights }),
    ).toBeCloseTo(words1, 10);
    expect(personalProbability('my tea', { bias: -1, weights: { my: 2 } }, meaning)).toBeCloseTo(
      words1,
      10,
    );
  });
});

describe('trainGateModel', () => {
  const examples: TrainingExample[] = [
    ...['what is my dog called', 'when is my flight', 'where does my sister live'].map((text) => ({
      text,
      personal: true,
    })),
    ...['what is a dog', 'when was the flight invented', 'where is paris'].map((text) => ({
      text,
      personal: false,
    })),
  ];

  it('separates what it was trained on, and gives the same model for the same data', () => {
    const options = { ...TRAINING, epochs: 50, minWeight: 0 };
    const model = trainGateModel(examples, options);
    for (const e of examples) {
      expect(personalProbability(e.text, model) > 0.5, e.text).toBe(e.personal);
    }
    expect(model.weights.my).toBeGreaterThan(0);
    expect(trainGateModel(examples, options)).toEqual(model);
    // Another shuffle, the same decisions.
    const reseeded = trainGateModel(examples, { ...options, seed: 7 });
    for (const e of examples) {
      expect(personalProbability(e.text, reseeded) > 0.5, e.text).toBe(e.personal);
    }
  });

  it('learns from meaning what the words cannot tell apart', () => {
    // The same words, told apart only by their meaning features.
    const at = (x: number) => {
      const f = new Float32Array(MEANING_FEATURES);
      f[7] = x;
      return f;
    };
    const data: TrainingExample[] = [
      { text: 'what about it', personal: true, meaning: at(1) },
      { text: 'what about it', personal: false, meaning: at(-1) },
      { text: 'and then', personal: true, meaning: at(1) },
      { text: 'and then', personal: false, meaning: at(-1) },
    ];
    const options = { ...TRAINING, epochs: 50, minWeight: 0 };
    const model = trainGateModel(data, options);
    expect(model.meaning).toHaveLength(MEANING_FEATURES);
    expect(model.meaning?.[7]).toBeGreaterThan(0);
    for (const e of data) {
      expect(personalProbability(e.text, model, e.meaning) > 0.5).toBe(e.personal);
    }
    expect(trainGateModel(data, options)).toEqual(model);
    // Without meaning features, no meaning weights.
    expect(trainGateModel(data.map(({ text, personal }) => ({ text, personal }))).meaning).toBe(
      undefined,
    );
    // Some with and some without: refused.
    expect(() => trainGateModel([...data, { text: 'x', personal: true }])).toThrow(/every/);
  });

  it('leaves out weights below minWeight', () => {
    const model = trainGateModel(examples, { ...TRAINING, minWeight: 0.5 });
    expect(Object.values(model.weights).every((w) => Math.abs(w) >= 0.5)).toBe(true);
  });

  it('ships exactly the model the dev halves of the bench data train (npm run gate-model)', () => {
    const { dev, heldout } = gateData();
    // The halves do not share a message the model could have learned by heart.
    const devTexts = new Set(dev.map((e) => e.text.toLowerCase()));
    expect(heldout.some((e) => devTexts.has(e.text.toLowerCase()))).toBe(false);
    expect(heldout.length).toBeGreaterThan(dev.length / 2);
    const shipped = readFileSync(join(import.meta.dirname, 'gate-model.json'), 'utf8');
    expect(JSON.stringify(trainGateModel(dev)) + '\n').toBe(shipped);
    // The model with meaning, from the word vectors of the asset the app ships.
    const withMeaning = dev.map((e) => ({ ...e, meaning: meaningFeatures(words, e.text) }));
    const shippedMeaning = readFileSync(
      join(import.meta.dirname, 'gate-model-meaning.json'),
      'utf8',
    );
    expect(JSON.stringify(trainGateModel(withMeaning)) + '\n').toBe(shippedMeaning);
    expect(SHIPPED_GATE_MODELS.withMeaning.meaning).toHaveLength(MEANING_FEATURES);
  });

  it('trains on the whole unrelated fixture (the tests hold every prompt of it to no memory)', () => {
    const { dev, heldout } = gateData();
    const fixture = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../../../../test/fixtures/prompts/unrelated.json'),
        'utf8',
      ),
    ) as string[];
    const devTexts = new Set(dev.map((e) => e.text));
    expect(fixture.every((p) => devTexts.has(p))).toBe(true);
    const heldoutTexts = new Set(heldout.map((e) => e.text));
    expect(fixture.some((p) => heldoutTexts.has(p))).toBe(false);
  });
});

describe('the gate with its model', () => {
  it('gives memory to first-person wordings the rules do not hear', () => {
    // Dev messages of the bench data that only the model passes.
    for (const message of [
      'What is the name of my wife, do you still know it?',
      'bro which station i get off at for work ah',
      'reckon you could sort a brekkie that fits my macros',
      'pick a book for me for the flight, I’m in a slump and you know what I read',
      // The flight they told of decides it.
      'What time do I need to leave for the airport?',
      // The first person of a dialect.
      'Which hospital mi work at again? Filling out dis mortgage form after a long day an mi brain tired bad.',
      // "these days" is a time, not material the message brings.
      "whit toon am a bidin in these days? the wife's fillin in a form an ma heid's mince",
    ]) {
      expect(personalProbability(message), message).toBeGreaterThanOrEqual(0.98);
      expect(classifyHeuristic(message, ctx), message).toBe('pinned');
    }
  });

  it('does not give memory to general or code messages, or to ones that name nobody', () => {
    for (const message of [
      // General questions the rules recognise, with the user's own as the example.
      "the thing I use to zest lemons, what's it called?",
      'Where am I going wrong with this recursion?',
      'write a haiku about autumn',
      'I need a regex that matches email addresses',
      'my code throws a null pointer exception, why?',
      'how do I tell my boss I am quitting?',
      'What do I name this variable?',
      'Which sorting algorithm is stable?',
    ]) {
      expect(classifyHeuristic(message, ctx), message).toBe('none');
    }
    // Sure of it, but no first person and no one of theirs: not the model's to decide.
    const nobody = 'which station to get off at for work';
    expect(classifyHeuristic(nobody, ctx)).toBe('none');
    // Code brings its own material, whatever the model says.
    const code =
      'bro which station i get off at for work ah, const station = next(); return station;';
    expect(personalProbability(code)).toBeGreaterThanOrEqual(0.98);
    expect(classifyHeuristic(code, ctx)).toBe('none');
  });

  it('overrules the rules for facts when all but sure a message needs nothing of its writer', () => {
    // Dev messages that bring what they need; the rules read "my flatmate", "my mum", "my brother".
    for (const message of [
      'Help me draft a text to my flatmate asking him to stop leaving dishes in the sink, without sounding passive-aggressive',
      'My mum has just been diagnosed with type 2 diabetes. What kinds of meals are good to cook for her?',
      'My younger brother just got into university for engineering 🎉 write him a congratulations message, something funny but proud',
    ]) {
      expect(personalProbability(message), message).toBeLessThan(0.02);
      expect(classifyHeuristic(message, ctx), message).toBe('none');
    }
  });

  it('never overrules memory asked for outright', () => {
    for (const message of ['how do I feel about planes?', 'Who am I?', 'do you remember my dog?']) {
      expect(classifyHeuristic(message, ctx), message).not.toBe('none');
    }
    expect(personalProbability('how do I feel about planes?')).toBeLessThan(0.02);
  });

  it('decides with the probabilities and thresholds it is given', () => {
    const added = 'reckon you could sort a brekkie that fits my macros';
    const overruled =
      'Draft a short email to my boss asking for a meeting to discuss a pay rise. Keep it confident but not pushy.';
    const rulesOnly = {
      probability: () => 0.5,
      addFrom: 0.98,
      addFromHeld: 0.98,
      overruleBelow: 0.02,
    };
    expect(classifyHeuristic(added, ctx, rulesOnly)).toBe('none');
    expect(classifyHeuristic(overruled, ctx, rulesOnly)).toBe('pinned');
    const at = (p: number) => ({
      probability: () => p,
      addFrom: 0.9,
      addFromHeld: 0.9,
      overruleBelow: 0.2,
    });
    expect(classifyHeuristic(added, ctx, at(0.9))).toBe('pinned');
    expect(classifyHeuristic(added, ctx, at(0.89))).toBe('none');
    expect(classifyHeuristic(overruled, ctx, at(0.19))).toBe('none');
    expect(classifyHeuristic(overruled, ctx, at(0.2))).toBe('pinned');
    // The shipped ones by default.
    expect(classifyHeuristic(added, ctx)).toBe(classifyHeuristic(added, ctx, SHIPPED_MODEL));
  });

  it('lets the model decide from its own threshold where memory holds the relation asked about', () => {
    const added = 'what should I cook tonight that fits how I eat';
    const heard = { ...ctx, relationsOf: (text: string) => words.relationsFor(text, 0) };
    const asked = words.relationsFor(added, 0)[0]!.relation;
    const others = RELATIONS.map((r) => r.name).filter((r) => r !== asked);
    const use = { probability: () => 0.93, addFrom: 0.98, addFromHeld: 0.9, overruleBelow: 0.02 };
    expect(classifyHeuristic(added, heard, use)).toBe('none');
    expect(classifyHeuristic(added, { ...heard, heldRelations: new Set(others) }, use)).toBe(
      'none',
    );
    const holds = { ...heard, heldRelations: new Set([asked]) };
    expect(classifyHeuristic(added, holds, use)).toBe('pinned');
    expect(classifyHeuristic(added, holds, { ...use, probability: () => 0.89 })).toBe('none');
    // Without word meaning, no relation is known to be asked about.
    expect(classifyHeuristic(added, { ...ctx, heldRelations: new Set([asked]) }, use)).toBe('none');
    // Said without "I", a message about a relation memory holds is the model's to decide too;
    // about one it does not hold, the rules' alone.
    const unsaid = 'what is a good breakfast for someone on a vegan diet';
    expect(words.relationsFor(unsaid, 0)[0]!.relation).toBe(asked);
    expect(classifyHeuristic(unsaid, holds, use)).toBe('pinned');
    expect(classifyHeuristic(unsaid, holds, { ...use, probability: () => 0.89 })).toBe('none');
    expect(classifyHeuristic(unsaid, heard, { ...use, probability: () => 0.99 })).toBe('none');
    // The shipped model hears that one as a general question.
    expect(classifyHeuristic(unsaid, holds)).toBe('none');
    // Code is never the model's to give memory to.
    const code = 'def vegan_diet(meals): return [m for m in meals if m.vegan]';
    expect(words.relationsFor(code, 0)[0]!.relation).toBe(asked);
    expect(classifyHeuristic(code, holds, { ...use, probability: () => 1 })).toBe('none');
    expect(
      classifyHeuristic(code.replace('def', 'the'), holds, { ...use, probability: () => 1 }),
    ).toBe('pinned');
  });

  it('hears with meaning once the word vectors are loaded', () => {
    // Dev messages: the words alone are not sure enough, words and meaning are; and the other
    // way round for messages that bring what they need.
    const heard = { ...ctx, meaningOf: (text: string) => meaningFeatures(words, text) };
    for (const message of [
      'help me make a revision timetable round my shifts and training',
      'I want to take the family to the coast in December — how many rooms should I book for all of us?',
    ]) {
      expect(classifyHeuristic(message, ctx), message).toBe('none');
      expect(classifyHeuristic(message, heard), message).toBe('pinned');
    }
    for (const message of [
      'Write a short apology text to my sister for missing her birthday dinner because I was stuck at work.',
      'Write an apology text to my friend for missing her birthday dinner because I was stuck at work',
    ]) {
      expect(classifyHeuristic(message, ctx), message).toBe('pinned');
      expect(classifyHeuristic(message, heard), message).toBe('none');
    }
    // Vectors not loaded yet: the words alone answer.
    const loading = { ...ctx, meaningOf: () => null };
    const message =
      'Write an apology text to my friend for missing her birthday dinner because I was stuck at work';
    expect(classifyHeuristic(message, loading)).toBe('pinned');
  });

  it('never overrules a question about someone memory knows', () => {
    const message = 'How does Omar make sourdough?';
    expect(personalProbability(message)).toBeLessThan(0.02);
    expect(classifyHeuristic(message, { knownNames: nameSet(['Omar']) })).not.toBe('none');
  });
});
