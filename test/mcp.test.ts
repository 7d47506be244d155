// POST /mcp (DESIGN §9): an MCP client over Streamable HTTP initialises, lists the tools,
// remembers a fact, finds it with search_memory and forgets it. Same token and agent
// scoping as the REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

interface RpcReply {
  jsonrpc: string;
  id: unknown;
  result?: {
    tools?: { name: string; inputSchema: { required: string[] } }[];
    content?: { type: string; text: string }[];
    isError?: boolean;
    protocolVersion?: string;
    serverInfo?: { name: string };
  };
  error?: { code: number; message: string };
}

describe('MCP endpoint', () => {
  let h: EngineHarness;
  let nextId = 1;
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const rpc = async (method: string, params?: unknown) => {
    const res = await h.api<RpcReply>(
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: nextId++, method, ...(params !== undefined ? { params } : {}) },
      { accept: 'application/json, text/event-stream' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const call = async (name: string, args: unknown) => {
    const reply = await rpc('tools/call', { name, arguments: args });
    expect(reply.error).toBeUndefined();
    const text = reply.result!.content![0]!.text;
    return { isError: reply.result!.isError, text };
  };

  it('initialises and lists search_memory, remember and forget', async () => {
    const init = await rpc('initialize', {
      protocolVersion: '2025-03-26',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    });
    expect(init.result?.protocolVersion).toBe('2025-03-26');
    expect(init.result?.serverInfo?.name).toBe('cairn');
    const note = await h.api('POST', '/mcp', {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(note.status).toBe(202);
    const list = await rpc('tools/list');
    expect(list.result?.tools?.map((t) => t.name).sort()).toEqual([
      'forget',
      'remember',
      'search_memory',
    ]);
  });

  it('remember → search_memory finds it → forget → gone; other agents never see it', async () => {
    const stored = await call('remember', {
      agent_id: 'mia',
      content: 'Mia keeps her bicycle in the Quillmoor garage',
      tags: ['places'],
    });
    expect(stored.isError).toBe(false);
    const fact = JSON.parse(stored.text) as { id: number };

    const found = await call('search_memory', {
      agent_id: 'mia',
      scope: 'pinned',
      query: 'Quillmoor',
    });
    expect(found.isError).toBe(false);
    const results = (JSON.parse(found.text) as { results: { id: number }[] }).results;
    expect(results.map((r) => r.id)).toEqual([fact.id]);

    const other = await call('search_memory', {
      agent_id: 'ned',
      scope: 'pinned',
      query: 'Quillmoor',
    });
    expect(other.text).not.toContain('Quillmoor');
    const wrongAgent = await call('forget', { agent_id: 'ned', scope: 'pinned', id: fact.id });
    expect(wrongAgent.isError).toBe(true);

    const gone = await call('forget', { agent_id: 'mia', scope: 'pinned', id: fact.id });
    expect(gone.isError).toBe(false);
    const after = await call('search_memory', {
      agent_id: 'mia',
      scope: 'pinned',
      query: 'Quillmoor',
    });
    expect(after.text).not.toContain('Quillmoor');
  });

  it('bad arguments are tool errors with the validation message; bad calls are JSON-RPC errors', async () => {
    const bad = await call('search_memory', { agent_id: 'mia', scope: 'everything', query: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('scope');
    const badId = await call('forget', { agent_id: 'mia', scope: 'pinned', id: 'one' });
    expect(badId.isError).toBe(true);

    expect((await rpc('tools/call', { name: 'nope', arguments: {} })).error?.code).toBe(-32602);
    expect((await rpc('resources/list')).error?.code).toBe(-32601);
    const notRpc = await h.api<RpcReply>('POST', '/mcp', { hello: 'world' });
    expect(notRpc.status).toBe(200);
    expect(notRpc.body.error?.code).toBe(-32600);
  });

  it('needs the token, and answers GET with 405', async () => {
    const res = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const get = await h.api('GET', '/mcp');
    expect(get.status).toBe(405);
  });
});
