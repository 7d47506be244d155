// POST /memory/import and GET /memory/export through the real server and the real encrypted
// database: each service's export (fixtures in test/fixtures/import, dated years ago, each
// with a <private> span) becomes transcript rows with their own dates and is distilled like
// an ingest; importing it again adds nothing; bad input is a 400 naming what is wrong and
// stores nothing; Cairn's own export round-trips facts, episodes, identity and transcript.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsResponse } from '../src/shared/api.ts';
import type { MemoryExport, MemoryImportResponse } from '../src/shared/memory-export.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'import', name), 'utf8'));
const chatgpt = fixture('chatgpt-conversations.json');
const claude = fixture('claude-conversations.json');
const openwebui = fixture('openwebui-chats.json');

let h: EngineHarness;
beforeAll(async () => {
  // No Core Model: imports are distilled by the built-in extraction, never a model request.
  h = await startEngine({ upstream: null });
});
afterAll(() => h?.stop());

interface Row {
  role: string;
  content: string;
  conversation_id: string;
  created_at: number;
}
const rows = (agent: string): Row[] =>
  h.services.db
    .prepare(
      'SELECT role, content, conversation_id, created_at FROM transcript WHERE agent_id = ? ORDER BY id',
    )
    .all(agent) as Row[];
const count = (table: string, agent: string): number =>
  (
    h.services.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE agent_id = ?`).get(agent) as {
      n: number;
    }
  ).n;

const importData = (agent_id: string, format: string, data: unknown) =>
  h.api<MemoryImportResponse & { error?: { message: string; code: string } }>(
    'POST',
    '/memory/import',
    { agent_id, format, data },
  );

async function agentSummary(id: string) {
  const agents = await h.api<AgentsResponse>('GET', '/agents');
  return agents.body.agents.find((a) => a.id === id);
}

describe('POST /memory/import: each service export', () => {
  it('ChatGPT: the current branch only, text the user and the assistant wrote, dates kept', async () => {
    const res = await importData('from-chatgpt', 'chatgpt', chatgpt);
    expect(res).toEqual({ status: 200, body: { conversations: 2, turns: 3 } });
    const stored = rows('from-chatgpt');
    expect(stored.map((r) => [r.role, r.content])).toEqual([
      ['user', 'I just moved to Valencia for a job at a bakery. [private]'],
      ['assistant', 'Congratulations on the move to Valencia!'],
      ['user', 'This is the bakery where I work now.'],
      ['assistant', 'It looks cosy.'],
      ['user', 'My dog Pixel keeps pulling on the leash.'],
      ['assistant', 'Try stopping each time Pixel pulls.'],
    ]);
    expect(stored.map((r) => new Date(r.created_at).toISOString())).toEqual([
      '2020-05-09T08:01:00.000Z',
      '2020-05-09T08:01:30.000Z',
      '2020-05-09T08:20:00.000Z',
      '2020-05-09T08:20:10.000Z',
      '2021-01-07T06:13:20.000Z',
      '2021-01-07T06:13:50.000Z',
    ]);
    expect([...new Set(stored.map((r) => r.conversation_id))]).toEqual([
      'chatgpt:6650a1c2-0f1e-4c6e-9a51-3d2b7e0c0001',
      'chatgpt:6650a1c2-0f1e-4c6e-9a51-3d2b7e0c0002',
    ]);
  });

  it('Claude: text blocks (not thinking), human and assistant, dates kept', async () => {
    const res = await importData('from-claude', 'claude', claude);
    expect(res).toEqual({ status: 200, body: { conversations: 2, turns: 2 } });
    const stored = rows('from-claude');
    expect(stored.map((r) => [r.role, r.content])).toEqual([
      ['user', 'I am allergic to peanuts. [private] Can you suggest a snack?'],
      ['assistant', 'Roasted chickpeas are a good peanut-free snack.'],
      ['user', 'I started learning the classical guitar last month.'],
      ['assistant', 'Wonderful! Practise scales slowly every day.'],
    ]);
    expect(stored.map((r) => new Date(r.created_at).toISOString())).toEqual([
      '2021-03-04T09:15:00.000Z',
      '2021-03-04T09:15:20.123Z',
      '2022-11-20T18:00:00.000Z',
      '2022-11-20T18:00:30.000Z',
    ]);
  });

  it('Open WebUI: the history branch that ends at currentId, or the messages list', async () => {
    const res = await importData('from-openwebui', 'openwebui', openwebui);
    expect(res).toEqual({ status: 200, body: { conversations: 2, turns: 2 } });
    const stored = rows('from-openwebui');
    expect(stored.map((r) => [r.role, r.content])).toEqual([
      ['user', 'I am training for the Lisbon marathon in October. [private]'],
      ['assistant', 'Build up your long runs by ten percent a week.'],
      ['user', 'I prefer green tea over coffee.'],
      ['assistant', 'Green tea has less caffeine.'],
    ]);
    expect(new Date(stored[0]!.created_at).toISOString()).toBe('2022-07-05T10:00:00.000Z');
    expect(new Date(stored[3]!.created_at).toISOString()).toBe('2023-03-28T10:40:20.000Z');
  });

  it('distils every imported conversation like an ingest, and keeps private text out', async () => {
    await h.idle(60_000);
    for (const [agent, conversations] of [
      ['from-chatgpt', 2],
      ['from-claude', 2],
      ['from-openwebui', 2],
    ] as const) {
      const a = await agentSummary(agent);
      expect(a?.pending_count, agent).toBe(0);
      expect(a?.episode_count, agent).toBe(conversations);
    }
    const facts = h.services.db
      .prepare("SELECT content FROM pinned_facts WHERE agent_id = 'from-claude'")
      .pluck()
      .all() as string[];
    expect(
      facts.some((f) => /peanut/i.test(f)),
      facts.join(' | '),
    ).toBe(true);

    const secrets = ['XK4471902', 'Okafor', 'runner77'];
    for (const table of ['transcript', 'episodes', 'pinned_facts']) {
      const dump = JSON.stringify(h.services.db.prepare(`SELECT * FROM ${table}`).all());
      for (const secret of secrets) expect(dump, `${table}: ${secret}`).not.toContain(secret);
    }
  });

  it('keeps imported history through consolidation, whatever its old dates', async () => {
    const before = count('transcript', 'from-chatgpt');
    const episodes = count('episodes', 'from-chatgpt');
    const run = await h.api('POST', '/memory/consolidate', { agent_id: 'from-chatgpt' });
    expect(run.status).toBe(200);
    expect(count('transcript', 'from-chatgpt')).toBe(before);
    expect(count('episodes', 'from-chatgpt')).toBe(episodes);
  });

  it('adds nothing when the same file is imported again, and only the new messages of a conversation that went on', async () => {
    const before = rows('from-claude').length;
    expect((await importData('from-claude', 'claude', claude)).body).toEqual({
      conversations: 0,
      turns: 0,
    });
    expect(rows('from-claude')).toHaveLength(before);

    const later = structuredClone(claude) as { chat_messages: unknown[] }[];
    later[1]!.chat_messages.push({
      uuid: 'm5',
      text: 'Which scale should I start with?',
      sender: 'human',
      created_at: '2022-11-21T08:00:00Z',
    });
    expect((await importData('from-claude', 'claude', later)).body).toEqual({
      conversations: 1,
      turns: 1,
    });
    expect(rows('from-claude').map((r) => r.content)).toHaveLength(before + 1);
  });
});

describe('POST /memory/import: bad input is a 400 that names the problem and stores nothing', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['unknown format', 'gemini', chatgpt, /format/],
    ['no data', 'chatgpt', undefined, /data is required/],
    ['a Claude file sent as ChatGPT', 'chatgpt', claude, /ChatGPT export.*looks like a Claude/],
    ['ChatGPT: a date before 1900', 'chatgpt', withChatGptTime(-3_000_000_000), /create_time/],
    [
      'ChatGPT: current_node not in the mapping',
      'chatgpt',
      [{ ...(chatgpt as object[])[1]!, current_node: 'nope' }],
      /current_node/,
    ],
    ['a ChatGPT file sent as Claude', 'claude', chatgpt, /Claude export.*looks like a ChatGPT/],
    [
      'Claude: a date that does not exist',
      'claude',
      withClaudeDate('2021-02-30T10:00:00Z'),
      /February 2021 has days 1 to 28/,
    ],
    [
      'Claude: no chat_messages',
      'claude',
      [{ uuid: 'x', created_at: '2021-01-01' }],
      /chat_messages/,
    ],
    [
      'an Open WebUI chat without messages',
      'openwebui',
      [{ id: 'x', chat: {}, created_at: 1 }],
      /messages' or 'history/,
    ],
    [
      'Open WebUI: a timestamp years ahead',
      'openwebui',
      withOpenWebUiTimestamp(4_102_444_800),
      /timestamp.*year/,
    ],
    ['an empty list', 'openwebui', [], /empty list/],
    ['a list of conversations sent as a Cairn export', 'cairn', chatgpt, /Cairn memory export/],
    [
      'a Cairn export of several agents',
      'cairn',
      {
        format: 'cairn-memory',
        version: 1,
        exported_at: '2024-01-01T00:00:00Z',
        agents: [agent('a'), agent('b')],
      },
      /2 agents/,
    ],
  ];

  it.each(cases)('%s', async (_what, format, data, message) => {
    const res = await importData('refused', format, data);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(message);
    expect(count('transcript', 'refused')).toBe(0);
    expect(count('pinned_facts', 'refused')).toBe(0);
    expect(await agentSummary('refused')).toBeUndefined();
  });

  it('refuses a body above the ingest limit with 413', async () => {
    const small = await startEngine({ upstream: null, config: { ingestBodyLimit: 2048 } });
    try {
      const res = await small.api('POST', '/memory/import', {
        agent_id: 'big',
        format: 'chatgpt',
        data: chatgpt,
      });
      expect(res.status).toBe(413);
      expect(
        (small.services.db.prepare('SELECT count(*) AS n FROM transcript').get() as { n: number })
          .n,
      ).toBe(0);
    } finally {
      await small.stop();
    }
  });
});

describe('GET /memory/export and the Cairn format', () => {
  it('round-trips facts, episodes, identity and transcript into a new agent', async () => {
    const src = 'round-trip-src';
    await h.api('POST', '/memory/ingest', {
      agent_id: src,
      conversation_id: 'trip',
      turns: [
        { user: 'I live in Porto and I work as a nurse.', assistant: 'Noted.', date: '2019-06-01' },
        { user: 'My sister Ana visits in July.', assistant: 'Lovely.', date: '2019-06-02' },
      ],
    });
    await h.api('POST', '/memory/ingest', {
      agent_id: src,
      conversation_id: 'raw',
      skip_extraction: true,
      turns: [{ user: 'Just a note.', assistant: 'Kept.', date: '2018-01-01T10:00:00Z' }],
    });
    const pinned = await h.api<{ id: number }>('POST', '/memory/pinned', {
      agent_id: src,
      content: 'Prefers answers in Portuguese',
      salience: 0.7,
      tags: ['language'],
    });
    await h.api('PATCH', `/memory/pinned/${pinned.body.id}?agent_id=${src}`, {
      status: 'disabled',
    });
    await h.api('PUT', '/memory/identity', {
      agent_id: src,
      narrative: 'A nurse in Porto.',
      overrides: ['Answer briefly'],
    });
    await h.idle();

    const exported = await h.api<MemoryExport>('GET', `/memory/export?agent_id=${src}`);
    expect(exported.status).toBe(200);
    const doc = exported.body;
    expect(doc.agents.map((a) => a.id)).toEqual([src]);
    expect(doc.agents[0]!.transcript).toHaveLength(6);
    expect(doc.agents[0]!.episodes.length).toBeGreaterThan(0);
    expect(doc.agents[0]!.pinned.length).toBeGreaterThan(1);
    // Typed facts with their provenance and a disabled fact are part of what must come back.
    expect(doc.agents[0]!.pinned.some((f) => f.relation && f.source_ids?.length)).toBe(true);
    expect(doc.agents[0]!.pinned.some((f) => f.status === 'disabled')).toBe(true);

    const res = await importData('round-trip-copy', 'cairn', doc);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      conversations: 2,
      turns: 3,
      facts: doc.agents[0]!.pinned.length,
      episodes: doc.agents[0]!.episodes.length,
    });
    await h.idle();
    const copy = (await h.api<MemoryExport>('GET', '/memory/export?agent_id=round-trip-copy')).body;
    expect(normalise(copy.agents[0]!)).toEqual(normalise(doc.agents[0]!));
    // Nothing waits to be distilled again: the facts and episodes came with the export.
    expect((await agentSummary('round-trip-copy'))?.pending_count).toBe(0);

    // Importing it again adds nothing.
    expect((await importData('round-trip-copy', 'cairn', doc)).body).toEqual({
      conversations: 0,
      turns: 0,
      facts: 0,
      episodes: 0,
    });
  });

  it('exports every agent without agent_id, and the ones named with it', async () => {
    const all = await h.api<MemoryExport>('GET', '/memory/export');
    expect(all.status).toBe(200);
    expect(all.body.format).toBe('cairn-memory');
    expect(all.body.agents.map((a) => a.id)).toEqual(
      expect.arrayContaining(['from-chatgpt', 'from-claude', 'from-openwebui']),
    );
    const two = await h.api<MemoryExport>(
      'GET',
      '/memory/export?agent_id=from-claude&agent_id=from-openwebui',
    );
    expect(two.body.agents.map((a) => a.id)).toEqual(['from-claude', 'from-openwebui']);
    expect(two.body.agents[0]!.transcript.map((r) => r.content)[0]).toBe(
      'I am allergic to peanuts. [private] Can you suggest a snack?',
    );
  });

  it('refuses an unknown query parameter', async () => {
    const res = await h.api<{ error: { message: string } }>('GET', '/memory/export?agent=x');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/agent/);
  });
});

// ---------- helpers ----------

function withChatGptTime(seconds: number): unknown {
  const copy = structuredClone(chatgpt) as { create_time: number }[];
  copy[1]!.create_time = seconds;
  return copy;
}

function withClaudeDate(date: string): unknown {
  const copy = structuredClone(claude) as { chat_messages: { created_at: string }[] }[];
  copy[0]!.chat_messages[1]!.created_at = date;
  return copy;
}

function withOpenWebUiTimestamp(seconds: number): unknown {
  const copy = structuredClone(openwebui) as { chat: { messages: { timestamp: number }[] } }[];
  copy[1]!.chat.messages[2]!.timestamp = seconds;
  return copy;
}

function agent(id: string) {
  return { id, identity: null, pinned: [], episodes: [], transcript: [] };
}

/**
 * What must survive a round trip, without what cannot: row ids, the agent id, and when Cairn
 * stored an episode (the copy's own storing time; retention counts from it).
 */
function normalise(a: MemoryExport['agents'][number]) {
  const transcriptIndex = new Map(a.transcript.map((r, i) => [r.id, i]));
  const episodeIndex = new Map(a.episodes.map((e, i) => [e.id, i]));
  return {
    identity: { narrative: a.identity?.narrative, overrides: a.identity?.overrides },
    transcript: a.transcript.map(({ id: _id, agent_id: _a, ...r }) => r),
    episodes: a.episodes.map(({ id: _id, agent_id: _a, created_at: _c, ...e }) => e),
    pinned: a.pinned.map(({ id: _id, agent_id: _a, ...f }) => ({
      ...f,
      source_ids: f.source_ids?.map((id) => transcriptIndex.get(id)) ?? null,
      source_episode_id: f.source_episode_id == null ? null : episodeIndex.get(f.source_episode_id),
    })),
  };
}
