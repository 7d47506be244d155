// storeDigest with the real vector service (tiny embedding model fixture): new episodes and
// facts are embedded into the encrypted database and searchable by vector at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyModel } from '../../../../test/fixtures/tiny-model.ts';
import { committed } from '../../../../test/helpers/committed.ts';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { tinyEmbedderOptions } from '../../../../test/helpers/tiny-embedder.ts';
import { trashRows } from '../../../../test/helpers/trash-rows.ts';
import { silentLogger } from '../logger.ts';
import { countVectors } from '../store/vectors.ts';
import { createEmbedder, type Embedder } from '../vector/embedder.ts';
import { createVectorIndex } from '../vector/vector-index.ts';
import { createVectorService } from '../vector/vector-service.ts';
import { storeDigest } from './facts.ts';

let embedder: Embedder;
let tmp: string;
beforeAll(async () => {
  const modelRoot = await ensureTinyModel();
  tmp = mkdtempSync(join(tmpdir(), 'cairn-facts-vec-'));
  embedder = createEmbedder(tinyEmbedderOptions(modelRoot, join(tmp, 'models')));
  await embedder.start();
});
afterAll(async () => {
  await embedder.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('storeDigest with vectors', () => {
  it('embeds the new episode and facts, and forgetting removes their vectors', async () => {
    const t = tempDatabase();
    try {
      const vectors = createVectorService({
        db: t.db,
        embedder,
        index: createVectorIndex(),
        logger: silentLogger,
      });
      expect(vectors.isReady()).toBe(true);
      const r = await storeDigest({
        db: t.db,
        agentId: 'a',
        conversationId: 'c',
        conversationAt: 1,
        now: 1,
        vectors,
        digest: {
          episode: {
            summary: 'Ada talked about jazz concerts in Lisbon.',
            topics: ['music'],
            entities: ['Lisbon'],
            decisions: [],
            action_items: [],
            salience: 0.6,
          },
          pinned_candidates: [
            { content: 'User loves jazz concerts', salience: 0.7, tags: [] },
            { content: 'User lives in Lisbon', salience: 0.8, tags: [] },
          ],
          identity_facts: [],
        },
      });
      expect(r.factsAdded).toHaveLength(2);
      await committed(t.db); // new rows' vectors are stored with the next commit
      expect(countVectors(t.db, { agentId: 'a', kind: 'pinned' })).toBe(2);
      expect(countVectors(t.db, { agentId: 'a', kind: 'episode' })).toBe(1);
      const hits = await vectors.search('a', 'pinned', 'jazz concerts', 1);
      expect(hits[0]?.id).toBe(r.factsAdded[0]);
      // a near-identical restatement is recognised as the same fact
      const again = await storeDigest({
        db: t.db,
        agentId: 'a',
        conversationId: 'c2',
        conversationAt: 2,
        now: 2,
        vectors,
        digest: {
          episode: {
            summary: 'More jazz.',
            topics: [],
            entities: [],
            decisions: [],
            action_items: [],
            salience: 0.5,
          },
          pinned_candidates: [{ content: 'User loves jazz concerts!', salience: 0.7, tags: [] }],
          identity_facts: [],
        },
      });
      expect(again.factsBumped).toEqual([r.factsAdded[0]]);
      trashRows(t.db, 'a', 'pinned_facts', [r.factsAdded[0]!]);
      vectors.remove('pinned', r.factsAdded[0]!);
      expect(countVectors(t.db, { agentId: 'a', kind: 'pinned' })).toBe(1);
    } finally {
      t.cleanup();
    }
  });
});
