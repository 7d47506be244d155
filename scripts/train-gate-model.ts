// Trains the relevance gate's model (src/main/engine/memory/gate-model.ts) on the dev halves of
// the bench data (bench/gate-data.ts) and writes it to src/main/engine/memory/gate-model.json:
// `npm run gate-model`. Deterministic: the same data give the same file, and a test checks that
// the shipped file is what this script gives. --check: write nothing, exit 1 when it differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gateData } from '../bench/gate-data.ts';
import { trainGateModel } from '../src/main/engine/memory/gate-model.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const out = join(import.meta.dirname, '../src/main/engine/memory/gate-model.json');
const { dev } = gateData();
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
