// The relevance gate's labelled messages, split into the halves every figure reports apart:
// dev (what scripts/train-gate-model.ts trains the gate's model on) and held-out (never trained
// on). Needing memory: the personal rounds and every paraphrase set's questions. Needing none:
// the unrelated rounds, every paraphrase set's unrelated prompts and the unrelated fixture.
// Rounds split by line, odd lines (first, third, …) dev; paraphrase sets by their own `split`;
// the unrelated fixture is all dev (below). A held-out message the dev half holds word for word
// is left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainingExample } from '../src/main/engine/memory/gate-model.ts';
import { loadParaphraseData, PARAPHRASE_DATA_SETS } from './paraphrase.ts';

const DATA = join(import.meta.dirname, 'data');
const UNRELATED_FIXTURE = join(import.meta.dirname, '../test/fixtures/prompts/unrelated.json');

export const nonEmptyLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

export interface GateData {
  dev: TrainingExample[];
  heldout: TrainingExample[];
}

export function gateData(): GateData {
  const out: GateData = { dev: [], heldout: [] };
  const byLine = (texts: readonly string[], personal: boolean) =>
    texts.forEach((text, i) => (i % 2 === 0 ? out.dev : out.heldout).push({ text, personal }));
  for (const [dir, personal] of [
    ['personal-rounds', true],
    ['unrelated-rounds', false],
  ] as const) {
    for (const file of readdirSync(join(DATA, dir))
      .filter((f) => f.endsWith('.txt'))
      .sort()) {
      byLine(nonEmptyLines(join(DATA, dir, file)), personal);
    }
  }
  for (const path of PARAPHRASE_DATA_SETS) {
    const data = loadParaphraseData(path);
    for (const p of data.pairs) out[p.split].push({ text: p.question, personal: true });
    for (const u of data.unrelated) out[u.split].push({ text: u.prompt, personal: false });
  }
  // The unrelated fixture is dev data whole: the gate's tests hold every one of its prompts to no
  // memory, and a contract the tests enforce is one the model trains on, not one it is measured
  // by (held to zero, a held-out half gets fitted by whoever keeps the tests green).
  for (const text of JSON.parse(readFileSync(UNRELATED_FIXTURE, 'utf8')) as string[]) {
    out.dev.push({ text, personal: false });
  }
  // A held-out message word for word the same as a dev one (sets share "how do I center a
  // div?") would measure what the model learned by heart: left out.
  const dev = new Set(out.dev.map((e) => e.text.toLowerCase()));
  out.heldout = out.heldout.filter((e) => !dev.has(e.text.toLowerCase()));
  return out;
}
