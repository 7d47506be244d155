// What memory did, through the real proxy (issue 12, item 1): every request with the agent
// header leaves an activity row naming where each injected line came from (text only when
// the user opted in); an injected identity line counts as a use of its fact; a request
// without the agent header still says what happened in x-cairn-memory, and the log says why
// once per client and minute.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityResponse, PinnedFact } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
let client: OpenAI;
let hiveFact: number;
let beekeeperFact: number;
const QUESTION = 'Do you remember what I named my hive?';
const IDENTITY = 'The user is a beekeeper called Sam.';

async function addFact(agentId: string, content: string): Promise<number> {
  const res = await h.api<PinnedFact>('POST', '/memory/pinned', { agent_id: agentId, content });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  h = await startEngine({ logLevel: 'info' });
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
  hiveFact = await addFact('bees', 'The user keeps bees in Lisbon and calls the hive Honeybadger.');
  // The distiller stores an identity fact twice: as a pinned fact and as an override.
  beekeeperFact = await addFact('bees', IDENTITY);
  const put = await h.api('PUT', '/memory/identity?agent_id=bees', {
    agent_id: 'bees',
    overrides: [IDENTITY],
  });
  expect(put.status).toBe(200);
});
afterAll(() => h?.stop());

async function ask(conversation: string) {
  h.upstream.enqueue({ kind: 'chat', content: 'It is called Honeybadger.' });
  const { response } = await client.chat.completions
    .create(
      { model: 'scripted-model', messages: [{ role: 'user', content: QUESTION }] },
      {
        headers: { 'X-Osaurus-Agent-Id': 'bees', 'X-Osaurus-Conversation-Id': conversation },
      },
    )
    .withResponse();
  await h.idle();
  return response.headers.get('x-cairn-memory');
}

async function activity(query = '?agent_id=bees') {
  const res = await h.api<ActivityResponse>('GET', `/memory/activity${query}`);
  expect(res.status).toBe(200);
  return res.body.items;
}

const useCount = async (id: number) =>
  (await h.api<PinnedFact>('GET', `/memory/pinned/${id}?agent_id=bees`)).body.use_count;

describe('GET /memory/activity', () => {
  it('names the source of every injected line, keeps no text by default, and counts identity lines as used', async () => {
    const header = await ask('first');
    expect(header).toMatch(/^injected; tokens=\d+; section=/);
    const sent = JSON.stringify(h.upstream.chatRequests().at(-1)!.body);

    const [item] = await activity();
    expect(item).toMatchObject({
      agent_id: 'bees',
      conversation_id: 'first',
      protocol: 'chat',
      header,
    });
    expect(item!.tokens).toBe(Number(/tokens=(\d+)/.exec(header!)![1]));
    expect(item!.lines.length).toBeGreaterThanOrEqual(2);
    expect(item!.lines.every((l) => l.text === null)).toBe(true);
    // The identity line is traced to the fact that states it; the fact line to its own row.
    expect(item!.lines[0]!.source).toEqual({ scope: 'pinned', id: beekeeperFact });
    expect(item!.lines.map((l) => l.source)).toContainEqual({ scope: 'pinned', id: hiveFact });
    for (const line of item!.lines) expect(line.source.id).not.toBeNull();
    expect(sent).toContain('Honeybadger');

    // Nothing of the lines' text is in the stored row.
    const raw = h.services.db.prepare('SELECT * FROM memory_activity').all();
    expect(JSON.stringify(raw)).not.toContain('Honeybadger');
    expect(JSON.stringify(raw)).not.toContain('beekeeper');

    expect(await useCount(beekeeperFact)).toBe(1);
    expect(await useCount(hiveFact)).toBe(1);
  });

  it('keeps the lines exactly as injected once the user opts in, and forgets them on opt-out', async () => {
    expect((await h.api('PUT', '/settings', { activityKeepLines: true })).status).toBe(200);
    await ask('second');
    const block = /\[Memory\][\s\S]*\[\/Memory\]/.exec(
      (h.upstream.chatRequests().at(-1)!.body as { messages: { content: string }[] }).messages[0]!
        .content,
    )![0];
    const [item] = await activity();
    const injected = block
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2));
    expect(item!.lines.map((l) => l.text)).toEqual(injected);
    expect(item!.lines[0]!.text).toBe(IDENTITY);

    expect((await h.api('PUT', '/settings', { activityKeepLines: false })).status).toBe(200);
    const raw = h.services.db.prepare('SELECT lines FROM memory_activity').all();
    expect(raw.every((r) => (r as { lines: unknown }).lines === null)).toBe(true);
    expect((await activity()).every((i) => i.lines.every((l) => l.text === null))).toBe(true);
  });

  it('records why nothing was injected, and lists newest first across agents', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Hello!' });
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: 'Hi there' }] },
      { headers: { 'X-Osaurus-Agent-Id': 'other' } },
    );
    await h.idle();
    const [latest] = await activity('?limit=1');
    expect(latest).toMatchObject({
      agent_id: 'other',
      section: 'none',
      tokens: 0,
      lines: [],
    });
    expect(latest!.header).toMatch(/^none; reason=/);
    expect((await activity('?agent_id=bees')).every((i) => i.agent_id === 'bees')).toBe(true);
  });

  it('forgets the activity of a deleted agent', async () => {
    expect((await activity('?agent_id=other')).length).toBeGreaterThan(0);
    expect((await h.api('DELETE', '/agents/other')).status).toBe(200);
    expect(await activity('?agent_id=other')).toEqual([]);
    expect((await activity('?agent_id=bees')).length).toBeGreaterThan(0);
  });

  it("opens a line's source as it is now, for this agent only", async () => {
    const [item] = await activity();
    const source = item!.lines.find((l) => l.source.id === hiveFact)!.source;
    const url = (agent: string, id: number) =>
      `/memory/activity/source?agent_id=${agent}&scope=${source.scope}&id=${id}`;
    const found = await h.api<{ text: string }>('GET', url('bees', hiveFact));
    expect(found.status).toBe(200);
    expect(found.body.text).toBe('The user keeps bees in Lisbon and calls the hive Honeybadger.');
    expect((await h.api('GET', url('someone-else', hiveFact))).status).toBe(404);
    const identity = await h.api<{ text: string }>(
      'GET',
      '/memory/activity/source?agent_id=bees&scope=identity&id=0',
    );
    expect(identity.body.text).toBe(IDENTITY);
    const gone = await addFact('bees', 'A fact about to be forgotten.');
    expect((await h.api('DELETE', `/memory/pinned/${gone}?agent_id=bees`)).status).toBe(200);
    expect((await h.api('GET', url('bees', gone))).status).toBe(404);
    expect(
      (await h.api('GET', '/memory/activity/source?agent_id=bees&scope=nope&id=1')).status,
    ).toBe(400);
  });

  it('answers bad queries with a 400', async () => {
    for (const q of ['?limit=0', '?limit=5000', '?limit=abc', '?agent_id=']) {
      const res = await h.api('GET', `/memory/activity${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await fetch(`${h.url}/memory/activity`)).status).toBe(401);
  });
});

describe('requests without the agent header', () => {
  it('still carry x-cairn-memory, and are logged once per client and minute without content', async () => {
    const before = await activity('?limit=1000');
    for (let i = 0; i < 3; i++) {
      h.upstream.enqueue({ kind: 'chat', content: 'Plain answer.' });
      const { response } = await client.chat.completions
        .create({
          model: 'scripted-model',
          messages: [{ role: 'user', content: 'Secret plans for the Honeybadger hive' }],
        })
        .withResponse();
      expect(response.headers.get('x-cairn-memory')).toBe('none; reason=no-agent-header');
    }
    await h.idle();
    const lines = h.logs.filter((l) => l.includes('X-Osaurus-Agent-Id'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"protocol":"chat"');
    expect(h.logs.join('\n')).not.toContain('Secret plans');
    // Nothing is recorded for them.
    expect(await activity('?limit=1000')).toEqual(before);
  });

  it('say so in every wire format that can carry memory', async () => {
    const calls: [string, unknown][] = [
      ['/api/chat', { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: false }],
      ['/v1/messages', { model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }],
      ['/v1/responses', { model: 'm', input: 'Hi' }],
    ];
    for (const [path, body] of calls) {
      h.upstream.enqueue({ kind: 'chat', content: 'Hello.' });
      const res = await fetch(h.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-cairn-memory'), path).toBe('none; reason=no-agent-header');
    }
  });
});
