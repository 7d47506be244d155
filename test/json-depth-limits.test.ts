// Bodies nested far deeper than any real request (issue 10, item 6): every JSON route answers
// a clear 400 (MCP: a JSON-RPC error) instead of overflowing the stack into a 500, changes
// nothing, and the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

const DEEP = 5_000;
const deepArrays = '['.repeat(DEEP) + ']'.repeat(DEEP);
const deepObjects = '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP);

interface ApiError {
  error: { message: string; type: string; code: string };
}
interface RpcError {
  jsonrpc: '2.0';
  id: unknown;
  error: { code: number; message: string };
}

describe('JSON nesting limits', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const send = (method: string, path: string, body: string, token = h.token) =>
    fetch(h.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  const expectHealthy = async () => {
    const health = await fetch(`${h.url}/health`);
    expect(health.status).toBe(200);
    const search = await h.api('POST', '/memory/search', {
      agent_id: 'deep',
      scope: 'transcript',
      query: 'anything',
    });
    expect(search.status).toBe(200);
  };

  it.each([
    ['POST', '/v1/chat/completions', (deep: string) => `{"model":"m","messages":${deep}}`],
    [
      'POST',
      '/memory/ingest',
      (deep: string) =>
        `{"agent_id":"deep","conversation_id":"c","turns":[{"user":"hi","assistant":${deep}}]}`,
    ],
    ['PUT', '/settings', (deep: string) => `{"providers":${deep}}`],
    ['POST', '/memory/search', (deep: string) => deep],
  ])('%s %s: 400 in the API error shape, for arrays and objects', async (method, path, wrap) => {
    for (const deep of [deepArrays, deepObjects]) {
      const res = await send(method, path, wrap(deep));
      expect(res.status).toBe(400);
      const body = (await res.json()) as ApiError;
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(/more than 64 levels deep/);
    }
    await expectHealthy();
  });

  it('stores nothing: an ingest with a deep turn leaves no transcript, settings stay as they were', async () => {
    const before = await h.api('GET', '/settings');
    await send('PUT', '/settings', `{"memoryBudgetTokens":1500,"providers":${deepObjects}}`);
    expect(await h.api('GET', '/settings')).toEqual(before);

    await send(
      'POST',
      '/memory/ingest',
      `{"agent_id":"deep-ingest","conversation_id":"c","turns":[{"user":"hello there","assistant":${deepArrays}}]}`,
    );
    const agents = await h.api<{ agents: { id: string }[] }>('GET', '/agents');
    expect(agents.body.agents.map((a) => a.id)).not.toContain('deep-ingest');
    // Nothing reached the provider either.
    expect(h.upstream.chatRequests()).toHaveLength(0);
  });

  it('accepts a body nested exactly to the limit', async () => {
    // 64 levels: the body object, the messages array, a message object, 61 more below it.
    const inner = '['.repeat(61) + ']'.repeat(61);
    const res = await send(
      'POST',
      '/v1/chat/completions',
      `{"model":"m","messages":[{"role":"user","content":"hi","extra":${inner}}]}`,
    );
    expect(res.status).toBe(200);
  });

  describe('MCP', () => {
    const rpcCall = (args: string, id = 7) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"remember","arguments":${args}}}`;

    it('answers a JSON-RPC error, never a 5xx, for arguments nested 5,000 deep', async () => {
      for (const deep of [deepArrays, `{"agent_id":"a","content":"x","tags":${deepObjects}}`]) {
        const res = await send('POST', '/mcp', rpcCall(deep));
        expect(res.status).toBe(400);
        const body = (await res.json()) as RpcError;
        expect(body.jsonrpc).toBe('2.0');
        expect(body.id).toBeNull();
        expect(body.error.code).toBe(-32600);
        expect(body.error.message).toMatch(/more than 64 levels deep/);
      }
      await expectHealthy();
    });

    it('refuses arguments deeper than any tool takes with invalid params and the call id', async () => {
      const nested = '{"a":'.repeat(20) + '1' + '}'.repeat(20);
      const res = await send(
        'POST',
        '/mcp',
        rpcCall(`{"agent_id":"a","content":"x","x":${nested}}`),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as RpcError;
      expect(body.id).toBe(7);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(/nest more than 8 levels/);
    });

    it('refuses oversized and non-object arguments with invalid params', async () => {
      const big = JSON.stringify({ agent_id: 'a', content: 'x'.repeat(300 * 1024) });
      for (const [args, message] of [
        [big, /larger than 256 KiB/],
        ['[1,2]', /must be an object/],
        ['"text"', /must be an object/],
      ] as const) {
        const res = await send('POST', '/mcp', rpcCall(args));
        expect(res.status).toBe(200);
        const body = (await res.json()) as RpcError;
        expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
      }
      const pinned = await h.api<{ items: unknown[] }>('GET', '/memory/pinned?agent_id=a');
      expect(pinned.body.items).toEqual([]);
    });

    it('answers a parse error and a too-large body as JSON-RPC errors', async () => {
      const notJson = await send('POST', '/mcp', '{"jsonrpc":"2.0",');
      expect(notJson.status).toBe(400);
      expect(((await notJson.json()) as RpcError).error.code).toBe(-32700);

      const tooLarge = await send(
        'POST',
        '/mcp',
        rpcCall(JSON.stringify({ s: 'x'.repeat(2 ** 21) })),
      );
      expect(tooLarge.status).toBe(413);
      expect(((await tooLarge.json()) as RpcError).error.code).toBe(-32600);
    });

    it('keeps the API answer for a missing token', async () => {
      const res = await send('POST', '/mcp', rpcCall(deepArrays), 'wrong-token');
      expect(res.status).toBe(401);
      expect(((await res.json()) as ApiError).error.code).toBe('unauthorized');
    });
  });
});
