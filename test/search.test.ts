// POST /memory/search through the real server: validation, auth, isolation, FTS syntax.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResponse } from '../src/shared/api.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine();
  const ingest = (agent_id: string, conversation_id: string, turns: [string, string][]) =>
    h.api('POST', '/memory/ingest', {
      agent_id,
      conversation_id,
      session_date: '2024-03-10T10:00:00Z',
      skip_extraction: true,
      turns: turns.map(([user, assistant]) => ({ user, assistant })),
    });
  expect(
    (
      await ingest('alice', 'a1', [
        ['I started learning the cello last month', 'That is wonderful, how is it going?'],
        ['My teacher says my bowing is improving', 'Great progress!'],
        ['We are planning a trip to Kyoto in April', 'Kyoto is beautiful in spring.'],
      ])
    ).status,
  ).toBe(200);
  await ingest('bob', 'b1', [['My cello is a secret family heirloom', 'Nice.']]);
});

afterAll(async () => {
  await h?.stop();
});

describe('POST /memory/search', () => {
  it('returns ranked transcript results in the API shape', async () => {
    const res = await h.api('POST', '/memory/search', {
      agent_id: 'alice',
      scope: 'transcript',
      query: 'When did I start learning the cello?',
    });
    expect(res.status).toBe(200);
    const body = SearchResponse.parse(res.body);
    expect(body.results[0]?.content).toBe('I started learning the cello last month');
    expect(body.results[0]).toMatchObject({
      scope: 'transcript',
      conversation_id: 'a1',
      created_at: '2024-03-10T10:00:00.000Z',
    });
    const scores = body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('keeps agents apart', async () => {
    const res = await h.api<SearchResponse>('POST', '/memory/search', {
      agent_id: 'alice',
      scope: 'transcript',
      query: 'heirloom secret family',
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('heirloom');
  });

  it('honours top_k', async () => {
    const res = await h.api<SearchResponse>('POST', '/memory/search', {
      agent_id: 'alice',
      scope: 'transcript',
      query: 'cello Kyoto teacher trip',
      top_k: 2,
    });
    expect(res.body.results).toHaveLength(2);
  });

  it('answers 200 for queries full of FTS5 syntax', async () => {
    for (const query of ['"', '*', 'NEAR(', 'AND', ')', 'cello AND', '"cello', 'x:y', '^', '']) {
      const res = await h.api('POST', '/memory/search', {
        agent_id: 'alice',
        scope: 'transcript',
        query,
      });
      expect(res.status, query).toBe(200);
    }
  });

  it('rejects invalid requests with a 400 in the OpenAI error shape', async () => {
    for (const body of [
      { scope: 'transcript', query: 'x' },
      { agent_id: 'alice', scope: 'nope', query: 'x' },
      { agent_id: 'alice', scope: 'pinned', query: 'x', top_k: 0 },
      { agent_id: 'alice', scope: 'pinned', query: 'x', days: -1 },
      { agent_id: '', scope: 'pinned', query: 'x' },
    ]) {
      const res = await h.api<{ error: { message: string; type: string } }>(
        'POST',
        '/memory/search',
        body,
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(/.+/);
    }
  });

  it('requires the access token', async () => {
    const res = await fetch(`${h.url}/memory/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'alice', scope: 'transcript', query: 'cello' }),
    });
    expect(res.status).toBe(401);
  });
});
