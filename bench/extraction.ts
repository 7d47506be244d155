// The extraction stage's cost (issue 11): how long wink-nlp's model takes to load, and what
// reading facts from one message costs once it is loaded. Run: `node bench/extraction.ts`.
// The messages are everyday statements written for this bench (varied length and kind).
import { extractFacts } from '../src/main/engine/memory/extraction/extract.ts';
import { analyse, modelLoadMs } from '../src/main/engine/memory/extraction/nlp.ts';

type Print = (line: string) => void;

const MESSAGES = [
  'I switched to green tea, coffee makes me jittery.',
  'I moved to Lisbon in March. My manager is Priya Raman and she is great.',
  'We adopted a beagle named Biscuit last weekend! He already chewed my favourite shoes.',
  "I don't have a car, so I bike to work most days unless it rains.",
  'Can you help me plan a trip? I am flying to Tokyo on the 14th of June for two weeks.',
  "My sister Ana lives in Rome and works as a nurse. I'm allergic to shellfish, by the way.",
  'We no longer use Jenkins; we moved to GitHub Actions last quarter and it has been fine.',
  'I used to play the violin but now I mostly do yoga on weekends and in the evenings.',
  "Could you review this function? It returns null when the list is empty and I'm not sure why.",
  "Thanks! That worked. I'll try the second approach tomorrow morning before my standup.",
];

export function runExtractionBench(print: Print = console.log): void {
  const t0 = performance.now();
  analyse('Warm up.');
  const firstCall = performance.now() - t0;
  print(`model load ${modelLoadMs().toFixed(1)} ms (first call ${firstCall.toFixed(1)} ms)`);

  const at = Date.UTC(2024, 4, 2);
  const sentences = MESSAGES.reduce((n, m) => n + analyse(m).length, 0);
  // Warm the JIT, then measure.
  for (let i = 0; i < 200; i++) for (const m of MESSAGES) extractFacts(m, { at });
  const rounds = 1000;
  const t1 = performance.now();
  let facts = 0;
  for (let i = 0; i < rounds; i++)
    for (const m of MESSAGES) facts += extractFacts(m, { at }).length;
  const ms = performance.now() - t1;
  const perMessage = (ms / (rounds * MESSAGES.length)) * 1000;
  const perSentence = (ms / (rounds * sentences)) * 1000;
  print(
    `extractFacts: ${perMessage.toFixed(0)} us per message, ${perSentence.toFixed(0)} us per sentence ` +
      `(${MESSAGES.length} messages, ${sentences} sentences, ${facts / rounds} facts per round)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) runExtractionBench();
