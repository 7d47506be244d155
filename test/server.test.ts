import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentsResponse, HealthResponse } from '../src/shared/api.ts';
import { PublicSettings } from '../src/shared/settings.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';
import { request as httpRequest } from 'node:http';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({
    config: { chatBodyLimit: 64 * 1024, allowedOrigins: ['http://localhost:5173'] },
  });
});
afterAll(() => h?.stop());

/** A raw request (fetch cannot forge Host or send a broken body as-is). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: { error?: { message: string; type: string; code: string } } }> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* keep text */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as never });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const auth = () => ({ authorization: `Bearer ${h.token}` });
const json = { 'content-type': 'application/json' };
const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

describe('server: auth, host and origin', () => {
  it('serves /health without a token', async () => {
    const res = await raw('GET', '/health', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      encryption: { enabled: true, cipher: 'sqlcipher', keySource: 'env' },
      upstream: { configured: true },
      memoryEnabled: true,
    });
    expect(HealthResponse.safeParse(res.body).success).toBe(true);
  });

  it('says clearly when the port is taken', async () => {
    const port = Number(new URL(h.url).port);
    const other = await startEngine({ upstream: null, config: { port } }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect((other as Error).message).toMatch(/already in use/);
  });

  const cases: [string, Parameters<typeof raw>, number, string][] = [
    ['missing token', ['POST', '/v1/chat/completions', json, chat], 401, 'unauthorized'],
    [
      'wrong token',
      ['POST', '/v1/chat/completions', { ...json, authorization: 'Bearer nope' }, chat],
      401,
      'unauthorized',
    ],
    ['token on /agents', ['GET', '/agents', {}], 401, 'unauthorized'],
    ['token on /settings', ['GET', '/settings', {}], 401, 'unauthorized'],
    [
      'non-loopback Host (DNS rebinding)',
      ['GET', '/agents', { host: 'evil.example:1337' }],
      403,
      'forbidden_host',
    ],
    [
      'non-loopback Host even on /health',
      ['GET', '/health', { host: 'attacker.test' }],
      403,
      'forbidden_host',
    ],
    [
      'foreign Origin (CSRF)',
      ['POST', '/memory/ingest', { origin: 'https://evil.example' }, '{}'],
      403,
      'forbidden_origin',
    ],
  ];
  it.each(cases)('rejects %s', async (_name, args, status, code) => {
    const [method, path, headers, body] = args;
    const res = await raw(method, path, { ...headers }, body);
    expect(res.status).toBe(status);
    expect(res.body.error?.code).toBe(code);
    expect(res.body.error?.type).toBeTypeOf('string');
  });

  it('accepts its own origin and loopback host names', async () => {
    const port = new URL(h.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const res = await raw('GET', '/agents', { ...auth(), host, origin: `http://${host}` });
      expect(res.status).toBe(200);
    }
  });
});

describe('server: CORS for an allowed extra origin only', () => {
  it('answers the preflight and tags responses for that origin', async () => {
    const origin = 'http://localhost:5173';
    const pre = await raw('OPTIONS', '/agents', {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    });
    expect(pre.status).toBe(204);
    const res = await fetch(h.url + '/agents', {
      headers: { origin, authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const other = await raw('OPTIONS', '/agents', { origin: 'http://localhost:5174' });
    expect(other.status).toBe(403);
  });
});

describe('server: bad input never yields a 5xx', () => {
  const big = JSON.stringify({
    model: 'm',
    messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }],
  });
  const cases: [string, string, string, string | undefined, number, string][] = [
    ['invalid JSON', 'POST', '/v1/chat/completions', '{"model": "m", ', 400, 'invalid_json'],
    ['empty body', 'POST', '/v1/chat/completions', '', 400, 'invalid_json'],
    [
      'messages not an array',
      'POST',
      '/v1/chat/completions',
      '{"model":"m","messages":"hi"}',
      400,
      'validation_failed',
    ],
    [
      'missing model',
      'POST',
      '/v1/chat/completions',
      '{"messages":[{"role":"user","content":"x"}]}',
      400,
      'validation_failed',
    ],
    [
      'bad role',
      'POST',
      '/v1/chat/completions',
      '{"model":"m","messages":[{"role":"wizard","content":"x"}]}',
      400,
      'validation_failed',
    ],
    [
      'stream not a boolean',
      'POST',
      '/v1/chat/completions',
      '{"model":"m","stream":"yes","messages":[{"role":"user","content":"x"}]}',
      400,
      'validation_failed',
    ],
    ['oversized body', 'POST', '/v1/chat/completions', big, 413, 'payload_too_large'],
    [
      'ingest without turns',
      'POST',
      '/memory/ingest',
      '{"agent_id":"a","conversation_id":"c","turns":[]}',
      400,
      'validation_failed',
    ],
    [
      'ingest with a number as agent',
      'POST',
      '/memory/ingest',
      '{"agent_id":5,"conversation_id":"c","turns":[{"user":"u"}]}',
      400,
      'validation_failed',
    ],
    [
      'ingest with a bad date',
      'POST',
      '/memory/ingest',
      '{"agent_id":"a","conversation_id":"c","turns":[{"user":"u","date":"yesterday-ish"}]}',
      400,
      'validation_failed',
    ],
    [
      'settings out of range',
      'PUT',
      '/settings',
      '{"memoryBudgetTokens":5}',
      400,
      'validation_failed',
    ],
    [
      'settings unknown key',
      'PUT',
      '/settings',
      '{"memoryBudgetToken":500}',
      400,
      'validation_failed',
    ],
    ['settings not an object', 'PUT', '/settings', '[1,2]', 400, 'validation_failed'],
    ['unknown route', 'GET', '/memory/nowhere', undefined, 404, 'not_found'],
  ];
  it.each(cases)('%s → 4xx', async (_name, method, path, body, status, code) => {
    const res = await raw(method, path, { ...auth(), ...(body !== undefined ? json : {}) }, body);
    expect(res.status).toBe(status);
    expect(res.body.error?.code).toBe(code);
  });

  it('names the failing field', async () => {
    const res = await raw('PUT', '/settings', { ...auth(), ...json }, '{"memoryBudgetTokens":5}');
    expect(res.body.error?.message).toMatch(/memoryBudgetTokens/);
    const r2 = await raw(
      'POST',
      '/memory/ingest',
      { ...auth(), ...json },
      '{"agent_id":"a","conversation_id":"c","turns":[{"user":7}]}',
    );
    expect(r2.body.error?.message).toMatch(/turns\.0\.user/);
  });

  it('rejects a non-JSON content type with 415', async () => {
    const res = await raw(
      'POST',
      '/memory/ingest',
      { ...auth(), 'content-type': 'text/plain' },
      'hi',
    );
    expect(res.status).toBe(415);
  });

  it('keeps serving after all of that', async () => {
    const res = await raw('GET', '/agents', auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ agents: [] });
  });
});

describe('settings over HTTP', () => {
  it('masks provider keys and keeps them across a PUT that omits them', async () => {
    const put = await h.api('PUT', '/settings', {
      providers: [
        { id: 'p', name: 'P', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-very-secret' },
      ],
      activeProviderId: 'p',
      memoryBudgetTokens: 900,
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('sk-very-secret');
    const again = await h.api('PUT', '/settings', {
      providers: [{ id: 'p', name: 'Q', baseUrl: 'http://127.0.0.1:9/v1' }],
    });
    expect(again.status).toBe(200);
    const got = await h.api<{ providers: unknown[]; memoryBudgetTokens: number }>(
      'GET',
      '/settings',
    );
    expect(got.body.memoryBudgetTokens).toBe(900);
    expect(got.body.providers).toEqual([
      { id: 'p', name: 'Q', baseUrl: 'http://127.0.0.1:9/v1', apiKeySet: true },
    ]);
    expect(h.services.settings.get().providers[0]!.apiKey).toBe('sk-very-secret');
    expect(PublicSettings.safeParse(got.body).success).toBe(true);
    expect(AgentsResponse.safeParse((await h.api('GET', '/agents')).body).success).toBe(true);
  });
});
