// PUT /settings refuses provider URLs that are not http(s) with a host (issue 10, item 5): a
// `file:` or `javascript:` URL used to be stored, and every proxied request then failed with
// a 500. The refusal is a 400 naming the field, and nothing changes.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

interface ApiError {
  error: { message: string; type: string; code: string };
}

describe('PUT /settings: provider URLs', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it.each([
    ['file:///etc/passwd', 'not file:'],
    ['javascript:alert(1)', 'not javascript:'],
    ['data:text/plain,hello', 'not data:'],
    ['ftp://files.example/v1', 'not ftp:'],
    ['http://', 'with a host'],
    ['http:///v1', 'with a host'],
  ])('%s: 400 naming providers.0.baseUrl, nothing changed', async (baseUrl, reason) => {
    const before = await h.api('GET', '/settings');
    const res = await h.api<ApiError>('PUT', '/settings', {
      memoryBudgetTokens: 1500,
      providers: [{ id: 'bad', name: 'Bad', baseUrl }],
      activeProviderId: 'bad',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toContain('providers.0.baseUrl: baseUrl must');
    expect(res.body.error.message).toContain(reason);
    expect(await h.api('GET', '/settings')).toEqual(before);
  });

  it('does not repeat a refused URL, which may carry a password', async () => {
    const res = await h.api<ApiError>('PUT', '/settings', {
      providers: [{ id: 'p', name: 'P', baseUrl: 'ftp://me:hunter2@files.example/' }],
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('keeps serving requests after a refused URL: no 500 from a stored bad provider', async () => {
    await h.api('PUT', '/settings', {
      providers: [{ id: 'js', name: 'JS', baseUrl: 'javascript:alert(1)' }],
    });
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
    const err = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    // No provider was stored: the clear "none configured" answer, not an internal error.
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
  });

  it('accepts http and https providers, loopback and IPv6 included', async () => {
    const res = await h.api<{ providers: { baseUrl: string }[] }>('PUT', '/settings', {
      providers: [
        { id: 'local', name: 'Local', baseUrl: 'http://127.0.0.1:11434/v1' },
        { id: 'v6', name: 'V6', baseUrl: 'http://[::1]:8080/v1' },
        { id: 'cloud', name: 'Cloud', baseUrl: 'https://api.example.com/v1' },
      ],
      activeProviderId: 'local',
    });
    expect(res.status).toBe(200);
    expect(res.body.providers.map((p) => p.baseUrl)).toEqual([
      'http://127.0.0.1:11434/v1',
      'http://[::1]:8080/v1',
      'https://api.example.com/v1',
    ]);
  });
});
