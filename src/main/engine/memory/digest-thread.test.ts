import { afterEach, describe, expect, it } from 'vitest';
import { ensureWordVectorAsset } from '../../../../test/helpers/word-vectors.ts';
import { silentLogger } from '../logger.ts';
import { loadWordVectors } from '../vector/word-vectors.ts';
import { createDigestThread, type DigestThread } from './digest-thread.ts';
import { heuristicDigest, type HeuristicMessage } from './heuristic-distiller.ts';

const at = Date.UTC(2026, 2, 3, 10);
const conversation: HeuristicMessage[] = [
  {
    id: 11,
    role: 'user',
    content: 'We adopted a beagle named Pickle last week. Any tips for crate training?',
    created_at: at,
  },
  { id: 12, role: 'assistant', content: 'Start with short sessions and treats.', created_at: at },
  {
    id: 13,
    role: 'user',
    content: 'I keep my recipes in Notion, and I moved to Lisbon in March.',
    created_at: at + 60_000,
  },
];

const threads: DigestThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

function thread(options: { idleMs?: number; onRetired?: () => void } = {}): DigestThread {
  const t = createDigestThread({ logger: silentLogger, ...options });
  if (t === null) throw new Error('the digest worker file is missing');
  threads.push(t);
  return t;
}

describe('digest thread', () => {
  it('reads a conversation on the worker exactly as the distiller reads it here', async () => {
    const path = await ensureWordVectorAsset();
    const here = heuristicDigest(conversation, {
      conversationAt: at,
      words: loadWordVectors(path),
    });
    expect(here.pinned_candidates.length).toBeGreaterThan(0);
    const t = thread();
    const there = await t.digest(conversation, { conversationAt: at, wordVectorsPath: path });
    expect(there).toEqual(here);
    // Without word vectors, as the distiller reads before they load.
    const bare = await t.digest(conversation, { conversationAt: at, wordVectorsPath: null });
    expect(bare).toEqual(heuristicDigest(conversation, { conversationAt: at, words: null }));
  });

  it('answers concurrent digests each with its own conversation', async () => {
    const t = thread();
    const other: HeuristicMessage[] = [
      {
        role: 'user',
        content: 'My manager is Priya Raman. Draft a status update.',
        created_at: at,
      },
    ];
    const [a, b] = await Promise.all([
      t.digest(conversation, { conversationAt: at, wordVectorsPath: null }),
      t.digest(other, { conversationAt: at, wordVectorsPath: null }),
    ]);
    expect(a.episode.summary).toContain('beagle');
    expect(b.episode.summary).toContain('Priya Raman');
  });

  it('stops its worker when idle, says so, and starts another for the next digest', async () => {
    let retired = 0;
    const t = thread({ idleMs: 20, onRetired: () => retired++ });
    const first = await t.digest(conversation, { conversationAt: at, wordVectorsPath: null });
    expect(retired).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(retired).toBe(1);
    const second = await t.digest(conversation, { conversationAt: at, wordVectorsPath: null });
    expect(second).toEqual(first);
  });

  it('rejects a job the worker cannot do, and keeps serving the next', async () => {
    const t = thread();
    await expect(
      t.digest(conversation, { conversationAt: at, wordVectorsPath: '/nonexistent/vectors.bin' }),
    ).rejects.toThrow();
    const ok = await t.digest(conversation, { conversationAt: at, wordVectorsPath: null });
    expect(ok.episode.summary).toContain('beagle');
  });

  it('rejects what is pending when closed, and everything after', async () => {
    const t = thread();
    const pending = t.digest(conversation, { conversationAt: at, wordVectorsPath: null });
    await t.close();
    await expect(pending).rejects.toThrow(/closed/);
    await expect(
      t.digest(conversation, { conversationAt: at, wordVectorsPath: null }),
    ).rejects.toThrow(/closed/);
  });
});
