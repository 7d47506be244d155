// Forgetting: once a fact, an episode or a transcript row is deleted (moved to the trash), no
// search path (FTS, LIKE fallback, vectors) and no injected block returns it. Agents stay
// isolated.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTinyModel, TINY_MODEL_ID } from './fixtures/tiny-model.ts';
import { tempDatabase } from './helpers/temp-db.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import { trashRows } from './helpers/trash-rows.ts';
import type { SearchResponse, ContextResponse } from '../src/shared/api.ts';
import { fixedClock } from '../src/main/engine/clock.ts';
import { silentLogger } from '../src/main/engine/logger.ts';
import { searchScope } from '../src/main/engine/memory/search.ts';
import { insertEpisode } from '../src/main/engine/store/episodes.ts';
import { insertPinned } from '../src/main/engine/store/pinned.ts';
import { recordTurn } from '../src/main/engine/store/transcript.ts';
import { createEmbedder, type Embedder } from '../src/main/engine/vector/embedder.ts';
import { createVectorIndex } from '../src/main/engine/vector/vector-index.ts';
import { createVectorService } from '../src/main/engine/vector/vector-service.ts';

const SECRET = 'zanzibar';

describe('forget through the server', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ logLevel: 'error' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const search = async (agent_id: string, scope: string, query: string) => {
    const res = await h.api<SearchResponse>('POST', '/memory/search', { agent_id, scope, query });
    expect(res.status, h.logs.join('\n')).toBe(200);
    return res.body.results;
  };
  const context = async (agent_id: string, message: string) => {
    const res = await h.api<ContextResponse>('POST', '/memory/context', { agent_id, message });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('a deleted fact, episode and transcript row are gone from search and context', async () => {
    const db = h.services.db;
    const now = Date.now();
    const { transcriptIds } = recordTurn(db, {
      agentId: 'ann',
      conversationId: 'c1',
      messages: [
        {
          role: 'user',
          content: `My holiday house is in ${SECRET} near the beach`,
          createdAt: now,
        },
        { role: 'assistant', content: 'Sounds lovely, enjoy the beach house!', createdAt: now },
      ],
    });
    const episodeId = insertEpisode(
      db,
      {
        agentId: 'ann',
        conversationId: 'c1',
        summary: `Ann described her holiday house in ${SECRET}`,
        topics: ['holiday'],
        entities: [SECRET],
        decisions: [],
        actionItems: [],
        salience: 0.5,
        conversationAt: now,
      },
      now,
    );
    const factId = insertPinned(
      db,
      {
        agentId: 'ann',
        content: `Has a holiday house in ${SECRET}`,
        salience: 0.8,
        tags: [],
        pinnedByUser: true,
        sourceEpisodeId: episodeId,
      },
      now,
    );
    // the other agent has the same word and must keep it
    insertPinned(
      db,
      {
        agentId: 'ben',
        content: `Ben once sailed to ${SECRET}`,
        salience: 0.5,
        tags: [],
        pinnedByUser: false,
        sourceEpisodeId: null,
      },
      now,
    );

    expect((await search('ann', 'pinned', SECRET)).map((r) => r.id)).toEqual([factId]);
    expect((await search('ann', 'episodes', SECRET)).map((r) => r.id)).toEqual([episodeId]);
    expect((await search('ann', 'transcript', SECRET)).map((r) => r.id)).toContain(
      transcriptIds[0],
    );
    expect((await context('ann', `Remind me about ${SECRET}`)).block).toContain(SECRET);
    // agent isolation: ann's memory never reaches ben
    expect(JSON.stringify(await search('ben', 'transcript', SECRET))).not.toContain('holiday');
    expect((await context('ben', `Remind me about ${SECRET}`)).block).not.toContain('holiday');

    for (const path of [
      `/memory/pinned/${factId}`,
      `/memory/episodes/${episodeId}`,
      `/memory/transcript/${transcriptIds[0]}`,
    ]) {
      const del = await h.api('DELETE', `${path}?agent_id=ann`);
      expect(del.status, path).toBe(200);
    }

    // FTS (word), LIKE fallback (substring) and the injected block
    for (const query of [SECRET, 'anzib', 'holiday house']) {
      for (const scope of ['pinned', 'episodes', 'transcript']) {
        expect(
          JSON.stringify(await search('ann', scope, query)),
          `${scope} ${query}`,
        ).not.toContain(SECRET);
      }
    }
    for (const message of [
      `Remind me about ${SECRET}`,
      `What exactly did I say about ${SECRET}?`,
    ]) {
      expect((await context('ann', message)).block).not.toContain(SECRET);
    }
    // ben still has his own fact
    expect((await search('ben', 'pinned', SECRET))[0]?.content).toContain(SECRET);
  });
});

describe('forget with vectors', () => {
  let embedder: Embedder;
  let modelDir: string;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    const root = await ensureTinyModel();
    modelDir = mkdtempSync(join(tmpdir(), 'cairn-forget-models-'));
    embedder = createEmbedder({
      backend: 'transformers',
      modelId: TINY_MODEL_ID,
      cacheDir: modelDir,
      localModelPath: root,
      allowRemoteModels: false,
      logger: silentLogger,
    });
    await embedder.start();
  });
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  afterAll(async () => {
    await embedder?.close();
    rmSync(modelDir, { recursive: true, force: true });
  });

  it('a stale vector of a deleted row never brings it back', async () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    const clock = fixedClock(Date.now());
    const vectors = createVectorService({
      db: t.db,
      embedder,
      index: createVectorIndex(),
      logger: silentLogger,
      clock,
    });
    expect(vectors.isReady()).toBe(true);
    const content = `the lighthouse keeper in ${SECRET} painted boats`;
    const { transcriptIds } = recordTurn(t.db, {
      agentId: 'ann',
      conversationId: 'c',
      messages: [{ role: 'user', content, createdAt: clock.now() }],
    });
    const id = transcriptIds[0] as number;
    await vectors.indexRows('transcript', [{ id, agentId: 'ann', text: content }]);
    const deps = { db: t.db, vectors, clock };
    const query = 'lighthouse keeper painted boats';
    expect((await vectors.search('ann', 'transcript', query, 5)).map((v) => v.id)).toContain(id);
    expect((await searchScope(deps, { agentId: 'ann', scope: 'transcript', query }))[0]?.id).toBe(
      id,
    );
    // other agents never see it through the vector path either
    expect(await searchScope(deps, { agentId: 'ben', scope: 'transcript', query })).toEqual([]);

    // Deleted in SQL only: the in-memory index still holds the vector (worst case).
    expect(trashRows(t.db, 'ann', 'transcript', [id])).toBe(1);
    expect(await searchScope(deps, { agentId: 'ann', scope: 'transcript', query })).toEqual([]);
  });
});
