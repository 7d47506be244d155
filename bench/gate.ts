// The relevance gate alone (issue 11, item 5): how many prompts that need no memory it gives
// memory to, and how many questions about the user it lets through, with the word vectors the
// server uses and an agent whose memory knows a few people and places.
//   1. Unrelated prompts, round by round (bench/data/unrelated-rounds/round-NN.txt): each round
//      was written by an author who had not read the code, mostly in the first person about the
//      writer's own people and things, and measured before it was read (bench/data/README.md
//      says which rounds were read, and so are dev data now).
//   2. The questions of every paraphrase set (bench/data/paraphrase*.json), dev and held-out
//      apart, and the fixture of questions about the user (test/fixtures/prompts).
//   3. Rounds of questions and requests that need the user's memory, in many wordings
//      (bench/data/personal-rounds/round-NN.txt, written likewise): odd lines are dev, even lines
//      held-out, reported apart.
//   4. All of it split as the gate's model is trained (bench/gate-data.ts): dev and held-out.
// CPU only, a few seconds: `npm run bench -- gate`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  classifyHeuristic,
  type GateContext,
  wordVectorSenses,
} from '../src/main/engine/memory/gate.ts';
import { gateContextFrom } from '../src/main/engine/memory/memory-reader.ts';
import { loadWordVectors } from '../src/main/engine/vector/word-vectors.ts';
import { ensureWordVectorAsset } from '../test/helpers/word-vectors.ts';
import { gateData } from './gate-data.ts';
import { loadParaphraseData, PARAPHRASE_DATA_SETS } from './paraphrase.ts';

type Print = (line: string) => void;

const ROUNDS_DIR = join(import.meta.dirname, 'data', 'unrelated-rounds');
const PERSONAL_DIR = join(import.meta.dirname, 'data', 'personal-rounds');
const MEMORY_QUESTIONS = join(
  import.meta.dirname,
  '../test/fixtures/prompts/memory-questions.json',
);

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** An agent that remembers a home, a sister, a dog and a name, with the word vectors. */
export async function gateBenchContext(): Promise<GateContext> {
  const words = loadWordVectors(await ensureWordVectorAsset());
  return {
    ...gateContextFrom({
      transcriptHeads: ['I live in Lisbon with my wife', 'Sure!'],
      episodeEntities: ['Lisbon', 'Python'],
      facts: ['User lives in Lisbon', "User's sister is named Ines", 'User has a dog named Pepper'],
      identity: ["User's name is Nora"],
    }),
    // The relations those facts are typed with.
    heldRelations: new Set(['lives_in', 'sibling', 'pet']),
    ...wordVectorSenses(words),
  };
}

export async function runGateBench(print: Print): Promise<void> {
  // Its words may not pull unrelated prompts in.
  const ctx = await gateBenchContext();
  const memory = (prompt: string) => classifyHeuristic(prompt, ctx) !== 'none';

  let given = 0;
  let total = 0;
  for (const file of readdirSync(ROUNDS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()) {
    const prompts = lines(join(ROUNDS_DIR, file));
    const n = prompts.filter(memory).length;
    given += n;
    total += prompts.length;
    print(`  unrelated ${file.replace('.txt', '')}: memory for ${n}/${prompts.length}`);
  }
  print(`  unrelated, all rounds: memory for ${given}/${total} (target 0)`);

  const halves = { dev: { pass: 0, total: 0 }, heldout: { pass: 0, total: 0 } };
  for (const path of PARAPHRASE_DATA_SETS) {
    for (const pair of loadParaphraseData(path).pairs) {
      const half = halves[pair.split];
      half.total++;
      if (memory(pair.question)) half.pass++;
    }
  }
  const fixture = JSON.parse(readFileSync(MEMORY_QUESTIONS, 'utf8')) as string[];
  const fixturePass = fixture.filter(memory).length;
  const share = (h: { pass: number; total: number }) => (h.pass / h.total).toFixed(3);
  print(
    `  questions about the user that pass the gate: paraphrase sets dev ${halves.dev.pass}/${halves.dev.total} (${share(halves.dev)}), ` +
      `held-out ${halves.heldout.pass}/${halves.heldout.total} (${share(halves.heldout)}); fixture ${fixturePass}/${fixture.length}`,
  );

  for (const file of readdirSync(PERSONAL_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()) {
    const round = { dev: { pass: 0, total: 0 }, heldout: { pass: 0, total: 0 } };
    lines(join(PERSONAL_DIR, file)).forEach((prompt, i) => {
      const half = i % 2 === 0 ? round.dev : round.heldout;
      half.total++;
      if (memory(prompt)) half.pass++;
    });
    print(
      `  needing memory, ${file.replace('.txt', '')}: memory for dev ${round.dev.pass}/${round.dev.total} (${share(round.dev)}), ` +
        `held-out ${round.heldout.pass}/${round.heldout.total} (${share(round.heldout)})`,
    );
  }

  // The halves the gate's model is trained on (dev) and measured on (held-out), all data.
  const data = gateData();
  for (const half of ['dev', 'heldout'] as const) {
    const personal = data[half].filter((e) => e.personal);
    const general = data[half].filter((e) => !e.personal);
    print(
      `  all data, ${half === 'dev' ? 'dev (the model is trained on it)' : 'held-out'}: needing memory ${personal.filter((e) => memory(e.text)).length}/${personal.length}, ` +
        `unrelated with memory ${general.filter((e) => memory(e.text)).length}/${general.length}`,
    );
  }
}

if (import.meta.main) await runGateBench((l) => console.log(l));
