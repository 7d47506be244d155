import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('memory admin: unknown or invalid fields are refused, and nothing changes', () => {
  it('POST /memory/pinned with a field it does not know', async () => {
    h = await startEngine();
    const res = await h.api<{ error: { message: string; code: string } }>(
      'POST',
      '/memory/pinned',
      {
        agent_id: 'a',
        content: 'Ada likes tea',
        status: 'x',
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/status/);
    const list = await h.api<{ total: number }>('GET', '/memory/pinned?agent_id=a');
    expect(list.body.total).toBe(0);
  });

  it('PATCH /memory/pinned/:id with a misspelt field', async () => {
    h = await startEngine();
    const created = await h.api<{ id: number }>('POST', '/memory/pinned', {
      agent_id: 'a',
      content: 'Ada likes tea',
    });
    expect(created.status).toBe(201);
    const res = await h.api('PATCH', `/memory/pinned/${created.body.id}?agent_id=a`, {
      contnet: 'Ada likes coffee',
    });
    expect(res.status).toBe(400);
    const fact = await h.api<{ content: string }>(
      'GET',
      `/memory/pinned/${created.body.id}?agent_id=a`,
    );
    expect(fact.body.content).toBe('Ada likes tea');
  });
});
