// Keeps the paraphrase bench (bench/paraphrase.ts) working: a small slice of its data through
// the real `cairn serve` child process, the official openai client and the scripted upstream.
// It checks the harness's mechanics, not a score (the score is the bench's job).
import { describe, expect, it } from 'vitest';
import { containsWord, memoryBlockOf } from '../bench/memory-block.ts';
import { loadParaphraseData, runParaphrase, type ParaphraseData } from '../bench/paraphrase.ts';

function slice(): ParaphraseData {
  const data = loadParaphraseData();
  // One user's first three ordinary items and one change item (it has an earlier statement).
  const user = data.pairs[0]!.user;
  const own = data.pairs.filter((p) => p.user === user);
  const pairs = [...own.filter((p) => !p.earlier).slice(0, 3), own.find((p) => p.earlier)!];
  return { pairs, unrelated: data.unrelated.slice(0, 3), sessions: data.sessions.slice(0, 2) };
}

describe('paraphrase bench harness', () => {
  it('records the statements, asks every question, and gives unrelated prompts no block', async () => {
    const data = slice();
    expect(data.pairs).toHaveLength(4);
    expect(data.pairs.some((p) => p.earlier)).toBe(true);

    const run = await runParaphrase(data, { sessionsBetween: 1 });

    const agents = [...run.recorded.keys()];
    expect(agents).toHaveLength(1);
    expect(run.recorded.get(agents[0]!)).toEqual(data.pairs.map((p) => p.statement));
    expect(run.questions.map((q) => q.pair.id)).toEqual(data.pairs.map((p) => p.id));
    for (const q of run.questions) {
      expect(q.reachedUpstream).toBe(true);
      expect(q.header).toMatch(/^(injected|none);/);
      expect(q.hit).toBe(q.pair.expect.some((v) => containsWord(q.block, v)));
    }
    expect(run.unrelated).toHaveLength(3);
    for (const u of run.unrelated) {
      expect(u.block).toBe('');
      expect(u.header).toMatch(/^none;/);
    }
    // No Core Model: the upstream saw only the chat requests the bench sent.
    expect(run.foreignUpstreamRequests).toBe(0);
    expect(run.phases.map((p) => p.name)).toContain('questions');
  }, 90_000);

  it('matches expected values as whole words and finds the block in a user message', () => {
    expect(containsWord('- Has a cat named Miso', 'cat')).toBe(true);
    expect(containsWord('- Category: notes', 'cat')).toBe(false);
    expect(containsWord("- Teaches at St Aidan's College", "St Aidan's")).toBe(true);
    expect(containsWord('- fixed the 14 bus route', 'number 14')).toBe(false);
    const block = '[Memory]\n## Facts\n- lives in Porto\n[/Memory]';
    expect(memoryBlockOf(`Where do I live?\n\n${block}`)).toBe(block);
    expect(memoryBlockOf('Where do I live?')).toBe('');
  });
});
