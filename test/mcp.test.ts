// POST /mcp (DESIGN §9, issue 13) driven by the official MCP SDK client over Streamable HTTP:
// it initialises, lists the tools and calls every one of them; agents never see each other's
// memory; a client that skips `initialize` (stateless) is served too. Same token and Origin
// rules as the REST API.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

interface ToolText {
  content: { type: string; text: string }[];
  isError?: boolean;
}

describe('MCP endpoint (official SDK client)', () => {
  let h: EngineHarness;
  const clients: Client[] = [];
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await h?.stop();
  });

  const connect = async (headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'cairn-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(h.url + '/mcp'), {
        requestInit: { headers: { Authorization: `Bearer ${h.token}`, ...headers } },
      }),
    );
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const res = (await client.callTool({ name, arguments: args })) as ToolText;
    const text = res.content[0]!.text;
    return { isError: res.isError === true, text, json: () => JSON.parse(text) as unknown };
  };

  it('initialises and lists the four tools with input schemas from the shared zod types', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('cairn');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'forget',
      'list_memories',
      'remember',
      'search_memory',
    ]);
    const search = tools.find((t) => t.name === 'search_memory')!;
    expect(search.inputSchema.required?.sort()).toEqual(['query', 'scope']);
    expect(search.inputSchema.properties).toMatchObject({
      scope: { enum: ['pinned', 'episodes', 'transcript'] },
      top_k: { type: 'integer', minimum: 1, maximum: 100 },
    });
    const remember = tools.find((t) => t.name === 'remember')!;
    expect(remember.inputSchema.properties?.content).toMatchObject({ maxLength: 2000 });
  });

  it('remember → search_memory → list_memories → forget: every tool, one agent', async () => {
    const client = await connect();
    const stored = await call(client, 'remember', {
      agent_id: 'mia',
      content: 'Mia keeps her bicycle in the Quillmoor garage',
      tags: ['places'],
    });
    expect(stored.isError).toBe(false);
    const fact = stored.json() as { id: number; pinned_by_user: boolean; tags: string[] };
    expect(fact.pinned_by_user).toBe(false);
    expect(fact.tags).toEqual(['places']);

    const found = await call(client, 'search_memory', {
      agent_id: 'mia',
      scope: 'pinned',
      query: 'Quillmoor',
    });
    expect((found.json() as { results: { id: number }[] }).results.map((r) => r.id)).toEqual([
      fact.id,
    ]);
    const listed = await call(client, 'list_memories', { agent_id: 'mia', scope: 'pinned' });
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id: fact.id }] });

    const gone = await call(client, 'forget', { agent_id: 'mia', scope: 'pinned', id: fact.id });
    expect(gone.json()).toMatchObject({ deleted: true, id: fact.id, trash_id: expect.any(Number) });
    const after = await call(client, 'search_memory', {
      agent_id: 'mia',
      scope: 'pinned',
      query: 'Quillmoor',
    });
    expect(after.text).not.toContain('Quillmoor');
    // The REST API sees the same store: the fact is in the trash, restorable.
    const trash = await h.api<{ items: { label: string }[] }>('GET', '/memory/trash');
    expect(JSON.stringify(trash.body)).toContain('Quillmoor');
  });

  it('agent A never sees agent B: not by search, list, forget, nor a header-scoped connection', async () => {
    const client = await connect();
    const b = (
      await call(client, 'remember', { agent_id: 'bea', content: 'Bea hides the key in a teapot' })
    ).json() as { id: number };

    for (const scope of ['pinned', 'episodes', 'transcript']) {
      const search = await call(client, 'search_memory', {
        agent_id: 'ann',
        scope,
        query: 'teapot key',
      });
      expect(search.text).not.toContain('teapot');
      const list = await call(client, 'list_memories', { agent_id: 'ann', scope });
      expect(list.text).not.toContain('teapot');
    }
    const steal = await call(client, 'forget', { agent_id: 'ann', scope: 'pinned', id: b.id });
    expect(steal.isError).toBe(true);
    expect(steal.text).toMatch(/No pinned fact/);

    // A connection scoped by the header acts for that agent alone.
    const ann = await connect({ 'X-Osaurus-Agent-Id': 'ann' });
    const own = await call(ann, 'remember', { content: 'Ann waters the ferns on Sundays' });
    expect((own.json() as { agent_id: string }).agent_id).toBe('ann');
    const annList = await call(ann, 'list_memories', { scope: 'pinned' });
    expect(annList.text).toContain('ferns');
    expect(annList.text).not.toContain('teapot');
    const crossing = await call(ann, 'search_memory', {
      agent_id: 'bea',
      scope: 'pinned',
      query: 'teapot',
    });
    expect(crossing.isError).toBe(true);
    expect(crossing.text).toMatch(/differs from the X-Osaurus-Agent-Id/);
    // Without either, the call says what is missing.
    const none = await call(client, 'list_memories', { scope: 'pinned' });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/agent_id is required/);
  });

  it('invalid arguments are refused by the schema and change nothing', async () => {
    const client = await connect();
    const bad = await call(client, 'search_memory', {
      agent_id: 'mia',
      scope: 'everything',
      query: 'x',
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('scope');
    const badId = await call(client, 'forget', { agent_id: 'mia', scope: 'pinned', id: 'one' });
    expect(badId.isError).toBe(true);
    const tooLong = await call(client, 'remember', { agent_id: 'mia', content: 'x'.repeat(2001) });
    expect(tooLong.isError).toBe(true);
    const unknown = await call(client, 'nope', {});
    expect(unknown.isError).toBe(true);
    const pinned = await h.api<{ total: number }>('GET', '/memory/pinned?agent_id=mia');
    expect(pinned.body.total).toBe(0);
  });

  it('serves a stateless client: tools/call without initialize, plain JSON without SSE in Accept', async () => {
    const res = await fetch(h.url + '/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: {
          name: 'list_memories',
          arguments: { agent_id: 'nobody', scope: 'transcript' },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { id: number; result: ToolText };
    expect(body.id).toBe(42);
    expect(JSON.parse(body.result.content[0]!.text)).toEqual({ items: [], total: 0 });

    const notRpc = await h.api<{ error?: { code: number } }>('POST', '/mcp', { hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error?.code).toBeLessThan(0);
  });

  it('needs the token, refuses a foreign Origin, and answers GET and DELETE with 405', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const noToken = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(noToken.status).toBe(401);
    const foreign = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        origin: 'https://evil.example',
      },
      body,
    });
    expect(foreign.status).toBe(403);
    expect((await h.api('GET', '/mcp')).status).toBe(405);
    expect((await h.api('DELETE', '/mcp')).status).toBe(405);
  });
});
