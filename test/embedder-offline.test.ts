// Offline from the first minute (issue 11): with no sentence model on the machine and
// downloads off, the engine serves vector search with the static word vectors, /health says
// so, a memory search finds a fact by meaning, and POST /memory/embedder/retry tries the
// model again now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthResponse, EmbedderStateDto } from '../src/shared/api.ts';
import { WORD_VECTORS_MODEL_ID } from '../src/main/engine/vector/word-vectors.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';
import { ensureWordVectorAsset } from './helpers/word-vectors.ts';

let h: EngineHarness;

async function health(): Promise<HealthResponse> {
  return (await h.api<HealthResponse>('GET', '/health')).body;
}

beforeAll(async () => {
  await ensureWordVectorAsset();
  h = await startEngine({
    config: {
      embedder: {
        backend: 'transformers',
        modelId: 'cairn-test/not-on-this-machine',
        allowRemoteModels: false,
      },
    },
  });
  // Background start: wait for the model's failure and the word vectors.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const e = (await health()).embedder;
    if (e.status === 'error' && e.wordVectors?.status === 'ready') break;
    if (Date.now() > deadline) throw new Error(`embedder: ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
});
afterAll(() => h?.stop());

describe('static word vectors while the sentence model is unavailable', () => {
  it('/health says the word vectors serve and when the model is tried again', async () => {
    const e = (await health()).embedder;
    expect(e).toMatchObject({
      status: 'error',
      model: 'cairn-test/not-on-this-machine',
      active: 'word_vectors',
      wordVectors: { status: 'ready', model: WORD_VECTORS_MODEL_ID, dims: 100 },
    });
    expect(e.error).toMatch(/not on this machine/);
    expect(e.retry?.attempts).toBe(1);
    expect(e.retry?.nextAt).toBeGreaterThan(Date.now());
  });

  it('finds a fact by meaning that shares no word with the question', async () => {
    const agent = 'offline-agent';
    for (const content of [
      'I switched to green tea last winter',
      'My manager is Priya Raman',
      'The garage door needs a new spring',
    ]) {
      expect((await h.api('POST', '/memory/pinned', { agent_id: agent, content })).status).toBe(
        201,
      );
    }
    await h.idle();
    const res = await h.api<{ results: { content: string }[] }>('POST', '/memory/search', {
      agent_id: agent,
      scope: 'pinned',
      query: "What's my usual beverage?",
      top_k: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r.content)).toEqual(['I switched to green tea last winter']);
  });

  it('a question about who the user is also gets what they said of themselves in passing', async () => {
    // Stored without extraction: no fact says it, only the user's own words do.
    const agent = 'offline-identity';
    const ingest = await h.api('POST', '/memory/ingest', {
      agent_id: agent,
      conversation_id: 'passing',
      skip_extraction: true,
      turns: [
        {
          user: 'Since we relocated to Valencia the flat gets far too hot in August. Which fan is quietest?',
          assistant: 'A pedestal fan with a DC motor is the quietest kind.',
        },
        {
          user: 'Write a regex that matches an ISO date.',
          assistant: 'Use ^\\d{4}-\\d{2}-\\d{2}$.',
        },
      ],
    });
    expect(ingest.status).toBe(200);
    await h.idle();
    const res = await h.api<{ section: string; block: string }>('POST', '/memory/context', {
      agent_id: agent,
      message: 'Where do I live?',
    });
    expect(res.body.section).toBe('identity');
    expect(res.body.block).toContain('relocated to Valencia');
  });

  it('POST /memory/embedder/retry tries the model again now (202) and needs the token', async () => {
    const res = await h.api<EmbedderStateDto>('POST', '/memory/embedder/retry');
    expect(res.status).toBe(202);
    expect(res.body.model).toBe('cairn-test/not-on-this-machine');
    // The attempt fails again (still not on this machine): a fresh backoff series.
    const deadline = Date.now() + 10_000;
    let e = (await health()).embedder;
    while (!(e.status === 'error' && e.retry?.attempts === 1 && e.retry.nextAt !== null)) {
      if (Date.now() > deadline) throw new Error(JSON.stringify(e));
      await new Promise((r) => setTimeout(r, 25));
      e = (await health()).embedder;
    }
    const anon = await fetch(`${h.url}/memory/embedder/retry`, { method: 'POST' });
    expect(anon.status).toBe(401);
  });
});
