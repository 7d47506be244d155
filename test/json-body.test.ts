// Request bodies: a UTF-8 byte order mark in front of the JSON (what Windows tools such as
// PowerShell write) is accepted; anything that is not JSON is a clear 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

describe('JSON request bodies', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const post = (body: Uint8Array | string) =>
    fetch(`${h.url}/memory/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body,
    });

  it('accepts a body that starts with a byte order mark', async () => {
    const json = JSON.stringify({ agent_id: 'bom', scope: 'pinned', query: 'anything' });
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]);
    const res = await post(bytes);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ results: [] });
  });

  it('still refuses what is not JSON, with the OpenAI error shape', async () => {
    const res = await post('\uFEFFnot json');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { type: string; code: string } };
    expect(body.error.type).toBe('invalid_request_error');
  });
});
