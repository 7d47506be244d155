// Trains the relevance gate's model (src/main/engine/memory/gate-model.ts) on the dev halves of
// the bench data (bench/gate-data.ts) and writes it to src/main/engine/memory/gate-model.json:
// `npm run gate-model`. Deterministic: the same data give the same file, and a test checks that
// the shipped file is what this script gives. --check: write nothing, exit 1 when it differs.
// --thresholds: write nothing; print what the whole gate does on the dev half at several pairs
// of thresholds, each message scored by a model that did not see it (five-fold
// cross-validation), beside the gate's rules alone. The held-out half plays no part.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gateBenchContext } from '../bench/gate.ts';
import { gateData } from '../bench/gate-data.ts';
import { classifyHeuristic, SHIPPED_MODEL } from '../src/main/engine/memory/gate.ts';
import {
  personalProbability,
  trainGateModel,
  type TrainingExample,
} from '../src/main/engine/memory/gate-model.ts';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    thresholds: { type: 'boolean', default: false },
  },
});
const out = join(import.meta.dirname, '../src/main/engine/memory/gate-model.json');
const { dev } = gateData();

if (values.thresholds) {
  const FOLDS = 5;
  const outOfFold = new Map<string, number>();
  for (let k = 0; k < FOLDS; k++) {
    const model = trainGateModel(dev.filter((_, i) => i % FOLDS !== k));
    dev.forEach((e, i) => {
      if (i % FOLDS === k) outOfFold.set(e.text, personalProbability(e.text, model));
    });
  }
  const ctx = await gateBenchContext();
  const needing = dev.filter((e) => e.personal);
  const general = dev.filter((e) => !e.personal);
  const line = (
    label: string,
    probability: (text: string) => number,
    addFrom: number,
    overruleBelow: number,
  ) => {
    const use = { probability, addFrom, overruleBelow };
    const given = (set: TrainingExample[]) =>
      set.filter((e) => classifyHeuristic(e.text, ctx, use) !== 'none').length;
    console.log(
      `${label}: needing memory ${given(needing)}/${needing.length}, unrelated with memory ${given(general)}/${general.length}`,
    );
  };
  console.log(
    `dev half, ${FOLDS}-fold cross-validation (shipped: ${SHIPPED_MODEL.addFrom} / ${SHIPPED_MODEL.overruleBelow})`,
  );
  line('  rules only', () => 0.5, 1, 0);
  const score = (text: string) => outOfFold.get(text) as number;
  for (const addFrom of [0.8, 0.9, 0.95, 0.98, 0.99]) {
    for (const overruleBelow of [0.02, 0.05, 0.1, 0.2, 0.3]) {
      line(
        `  adds from ${addFrom}, overrules below ${overruleBelow}`,
        score,
        addFrom,
        overruleBelow,
      );
    }
  }
  process.exit(0);
}

const model = trainGateModel(dev);
const text = JSON.stringify(model) + '\n';
const features = Object.keys(model.weights).length;
if (values.check) {
  const same = readFileSync(out, 'utf8') === text;
  console.log(
    same ? 'gate model: up to date' : 'gate model: differs from training (npm run gate-model)',
  );
  process.exit(same ? 0 : 1);
}
writeFileSync(out, text);
console.log(
  `gate model: ${dev.length} dev messages (${dev.filter((e) => e.personal).length} needing memory), ` +
    `${features} features, ${(text.length / 1e3).toFixed(0)} kB -> ${out}`,
);
