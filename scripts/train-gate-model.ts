// Trains the relevance gate's models (src/main/engine/memory/gate-model.ts) on the dev halves of
// the bench data (bench/gate-data.ts) and writes them to src/main/engine/memory/gate-model.json
// (words only) and gate-model-meaning.json (words and meaning, from the static word vectors):
// `npm run gate-model`. Deterministic: the same data give the same files, and a test checks that
// the shipped files are what this script gives. --check: write nothing, exit 1 when one differs.
// --thresholds: write nothing; print what the whole gate does on the dev half at several pairs
// of thresholds, each message scored by a model that did not see it (five-fold
// cross-validation), beside the gate's rules alone, for both models. The held-out half plays no
// part.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gateBenchContext } from '../bench/gate.ts';
import { gateData } from '../bench/gate-data.ts';
import {
  classifyHeuristic,
  type GateContext,
  SHIPPED_MODEL,
} from '../src/main/engine/memory/gate.ts';
import { RELATIONS } from '../src/main/engine/text/relations.ts';
import {
  type GateModel,
  meaningFeatures,
  personalProbability,
  trainGateModel,
  type TrainingExample,
} from '../src/main/engine/memory/gate-model.ts';
import { loadWordVectors } from '../src/main/engine/vector/word-vectors.ts';
import { ensureWordVectorAsset } from '../test/helpers/word-vectors.ts';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    thresholds: { type: 'boolean', default: false },
  },
});
const dir = join(import.meta.dirname, '../src/main/engine/memory');
const outWords = join(dir, 'gate-model.json');
const outMeaning = join(dir, 'gate-model-meaning.json');
const words = loadWordVectors(await ensureWordVectorAsset());
const { dev } = gateData();
const devWithMeaning = dev.map((e) => ({ ...e, meaning: meaningFeatures(words, e.text) }));
const meaningOf = new Map(devWithMeaning.map((e) => [e.text, e.meaning]));

if (values.thresholds) {
  const FOLDS = 5;
  const ctx = await gateBenchContext();
  const needing = dev.filter((e) => e.personal);
  const general = dev.filter((e) => !e.personal);
  const line = (
    label: string,
    probability: (text: string) => number,
    addFrom: number,
    overruleBelow: number,
  ) => {
    const use = { probability, addFrom, addFromHeld: addFrom, overruleBelow };
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
  const outOfFold = (examples: readonly TrainingExample[]) => {
    const scores = new Map<string, number>();
    for (let k = 0; k < FOLDS; k++) {
      const model = trainGateModel(examples.filter((_, i) => i % FOLDS !== k));
      examples.forEach((e, i) => {
        if (i % FOLDS === k) {
          scores.set(e.text, personalProbability(e.text, model, meaningOf.get(e.text) ?? null));
        }
      });
    }
    // A message longer than the gate's head is scored on its head: the model trained without it.
    return (text: string) => scores.get(text) ?? 0.5;
  };
  const wordsOnly = outOfFold(dev);
  const withMeaning = outOfFold(devWithMeaning);
  for (const [label, score] of [
    ['words only', wordsOnly],
    ['words and meaning', withMeaning],
  ] as const) {
    console.log(` ${label}`);
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
  }
  // Where memory holds a fact of the relation asked about, the model decides from its own
  // threshold. How many messages that holds for depends on the memory: a message needing memory
  // is about something the user told (every relation held); an unrelated one meets a memory
  // that holds about a third of the relations (a third, in turn) or, at worst, all of them.
  const names = RELATIONS.map((r) => r.name);
  const holding = (keep: (j: number) => boolean): GateContext => ({
    ...ctx,
    heldRelations: new Set(names.filter((_, j) => keep(j))),
  });
  const holdsAll = holding(() => true);
  const thirds = [0, 1, 2].map((k) => holding((j) => j % 3 === k));
  for (const [label, unrelatedMeets] of [
    ['a third of the relations', (i: number) => thirds[i % 3]!],
    ['every relation', () => holdsAll],
  ] as const) {
    console.log(
      ` words and meaning, adds from ${SHIPPED_MODEL.addFrom}, overrules below ${SHIPPED_MODEL.overruleBelow}; unrelated messages meet a memory holding ${label}`,
    );
    for (const addFromHeld of [0.5, 0.7, 0.8, 0.9, 0.95, 0.98]) {
      const use = {
        probability: withMeaning,
        addFrom: SHIPPED_MODEL.addFrom,
        addFromHeld,
        overruleBelow: SHIPPED_MODEL.overruleBelow,
      };
      const passed = needing.filter((e) => classifyHeuristic(e.text, holdsAll, use) !== 'none');
      const given = general.filter(
        (e, i) => classifyHeuristic(e.text, unrelatedMeets(i), use) !== 'none',
      );
      console.log(
        `  adds from ${addFromHeld} about a relation held: needing memory ${passed.length}/${needing.length}, unrelated with memory ${given.length}/${general.length}, score ${passed.length - 10 * given.length}`,
      );
    }
  }
  process.exit(0);
}

const files: [string, GateModel][] = [
  [outWords, trainGateModel(dev)],
  [outMeaning, trainGateModel(devWithMeaning)],
];
let differs = false;
for (const [path, model] of files) {
  const text = JSON.stringify(model) + '\n';
  const name = path.slice(dir.length + 1);
  if (values.check) {
    const same = readFileSync(path, 'utf8') === text;
    differs ||= !same;
    console.log(
      same ? `${name}: up to date` : `${name}: differs from training (npm run gate-model)`,
    );
    continue;
  }
  writeFileSync(path, text);
  console.log(
    `${name}: ${dev.length} dev messages (${dev.filter((e) => e.personal).length} needing memory), ` +
      `${Object.keys(model.weights).length} word features${model.meaning ? `, ${model.meaning.length} meaning features` : ''}, ${(text.length / 1e3).toFixed(0)} kB`,
  );
}
process.exit(differs ? 1 : 0);
