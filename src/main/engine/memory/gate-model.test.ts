import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateData } from '../../../../bench/gate-data.ts';
import { classifyHeuristic, nameSet, SHIPPED_MODEL } from './gate.ts';
import {
  gateFeatures,
  personalProbability,
  trainGateModel,
  TRAINING,
  type TrainingExample,
} from './gate-model.ts';

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
    // Dev messages that bring what they need; the rules read "my son", "my boss", "my mum".
    for (const message of [
      'Draft a short email to my boss asking for a meeting to discuss a pay rise. Keep it confident but not pushy.',
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
    const rulesOnly = { probability: () => 0.5, addFrom: 0.98, overruleBelow: 0.02 };
    expect(classifyHeuristic(added, ctx, rulesOnly)).toBe('none');
    expect(classifyHeuristic(overruled, ctx, rulesOnly)).toBe('pinned');
    const at = (p: number) => ({ probability: () => p, addFrom: 0.9, overruleBelow: 0.2 });
    expect(classifyHeuristic(added, ctx, at(0.9))).toBe('pinned');
    expect(classifyHeuristic(added, ctx, at(0.89))).toBe('none');
    expect(classifyHeuristic(overruled, ctx, at(0.19))).toBe('none');
    expect(classifyHeuristic(overruled, ctx, at(0.2))).toBe('pinned');
    // The shipped ones by default.
    expect(classifyHeuristic(added, ctx)).toBe(classifyHeuristic(added, ctx, SHIPPED_MODEL));
  });

  it('never overrules a question about someone memory knows', () => {
    const message = 'How does Omar make sourdough?';
    expect(personalProbability(message)).toBeLessThan(0.02);
    expect(classifyHeuristic(message, { knownNames: nameSet(['Omar']) })).not.toBe('none');
  });
});
