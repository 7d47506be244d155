// Floors for extraction on realistic chat (bench/extraction-realistic.ts): set from the
// held-out half's result when the floors were written (recall 15/36, precision 15/23, 11/11
// negatives quiet) minus a margin, so a change that makes the stage read chat worse fails
// here; the dev half's floor is its result then (26/37) minus the same margin.
import { beforeAll, describe, expect, it } from 'vitest';
import { scoreHalf } from '../bench/extraction-realistic.ts';
import { loadWordVectors, type WordVectors } from '../src/main/engine/vector/word-vectors.ts';
import { ensureWordVectorAsset } from './helpers/word-vectors.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

describe('extraction on realistic chat', () => {
  it("keeps the held-out half's recall and precision", () => {
    const s = scoreHalf('heldout', words);
    expect(s.found).toBeGreaterThanOrEqual(13);
    expect(s.correct / s.typed).toBeGreaterThanOrEqual(0.55);
    expect(s.quiet).toBeGreaterThanOrEqual(10);
  });

  it("keeps the dev half's recall and precision", () => {
    const s = scoreHalf('dev', words);
    expect(s.found).toBeGreaterThanOrEqual(24);
    expect(s.correct / s.typed).toBeGreaterThanOrEqual(0.85);
    expect(s.quiet).toBeGreaterThanOrEqual(10);
  });
});
