import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthResponse } from '../src/shared/api.ts';
import { TINY_MODEL_ID, TINY_MODEL_ROOT } from './fixtures/tiny-model.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({
    config: {
      embedder: {
        backend: 'transformers',
        modelId: TINY_MODEL_ID,
        localModelPath: TINY_MODEL_ROOT,
        allowRemoteModels: false,
      },
    },
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const health = await h.api<HealthResponse>('GET', '/health');
    if (health.body.embedder.status === 'ready') break;
    if (health.body.embedder.status === 'error' || Date.now() > deadline) {
      throw new Error(`embedder not ready: ${JSON.stringify(health.body.embedder)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => h?.stop());

const vectorCount = (agent: string) =>
  (
    h.services.db
      .prepare(`SELECT count(*) AS n FROM vectors WHERE agent_id = ? AND kind = 'transcript'`)
      .get(agent) as { n: number }
  ).n;

describe('vectors for recorded and ingested turns', () => {
  it('embeds ingested turns and recorded chat turns in the background', async () => {
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'vec',
      conversation_id: 'c1',
      skip_extraction: true,
      turns: [
        { user: 'We planted tomatoes in the garden.', assistant: 'Great, water them daily.' },
        { user: 'The invoice for March is overdue.', assistant: 'I will remind you.' },
      ],
    });
    expect(res.status).toBe(200);
    const client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
    h.upstream.enqueue({ kind: 'chat', content: 'Basil grows well next to tomatoes.' });
    await client.chat.completions.create(
      {
        model: 'scripted-model',
        messages: [{ role: 'user', content: 'What grows with tomatoes?' }],
      },
      { headers: { 'X-Osaurus-Agent-Id': 'vec' } },
    );
    await h.idle();
    expect(vectorCount('vec')).toBe(6);
    expect(h.services.vectors?.isReady()).toBe(true);
    const hits = await h.services.vectors!.search('vec', 'transcript', 'tomatoes garden', 3);
    expect(hits.length).toBeGreaterThan(0);
    const other = await h.services.vectors!.search('someone-else', 'transcript', 'tomatoes', 3);
    expect(other).toEqual([]);
  });
});
