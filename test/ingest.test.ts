import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsResponse, SearchResponse } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(() => h?.stop());

const rows = (agent: string) =>
  h.services.db
    .prepare(
      'SELECT role, content, conversation_id, created_at FROM transcript WHERE agent_id = ? ORDER BY id',
    )
    .all(agent) as { role: string; content: string; conversation_id: string; created_at: number }[];

describe('POST /memory/ingest', () => {
  it('stores turns with their dates (skip_extraction: nothing pending), then counts them in /agents', async () => {
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'locomo',
      conversation_id: 'session-1',
      session_date: '1:56 pm on 8 May, 2023',
      skip_extraction: true,
      turns: [
        { user: 'I adopted a puppy.', assistant: 'Congratulations!' },
        { user: 'She is a beagle.', assistant: 'Lovely.', date: '2023-05-09T10:00:00Z' },
        { user: 'Only a question', assistant: '' },
      ],
    });
    expect(res).toEqual({ status: 200, body: { status: 'ok', turns_ingested: 3 } });
    const stored = rows('locomo');
    expect(stored.map((r) => [r.role, r.content])).toEqual([
      ['user', 'I adopted a puppy.'],
      ['assistant', 'Congratulations!'],
      ['user', 'She is a beagle.'],
      ['assistant', 'Lovely.'],
      ['user', 'Only a question'],
    ]);
    expect(stored[0]!.created_at).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(stored[2]!.created_at).toBe(Date.UTC(2023, 4, 9, 10, 0));
    expect(new Set(stored.map((r) => r.conversation_id))).toEqual(new Set(['session-1']));

    const agents = await h.api<AgentsResponse>('GET', '/agents');
    expect(agents.body.agents.find((a) => a.id === 'locomo')).toEqual({
      id: 'locomo',
      display_name: null,
      paused: false,
      pinned_count: 0,
      episode_count: 0,
      transcript_count: 5,
      pending_count: 0,
      last_activity_at: '2023-05-09T10:00:00.000Z',
    });
  });

  it('distils at once unless skip_extraction (heuristic distiller without a Core Model)', async () => {
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'distilled',
      conversation_id: 'c1',
      turns: [
        { user: 'My name is Grace and I live in Lisbon.', assistant: 'Nice to meet you, Grace.' },
        { user: 'I prefer green tea over coffee.', assistant: 'Noted.' },
      ],
    });
    expect(res.status).toBe(200);
    const agents = await h.api<AgentsResponse>('GET', '/agents');
    const a = agents.body.agents.find((x) => x.id === 'distilled')!;
    expect(a.pending_count).toBe(0);
    expect(a.episode_count).toBe(1);
  });

  it('never distils turns ingested with skip_extraction, not even at shutdown or restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-skip-'));
    const first = await startEngine({ dataDir });
    try {
      const res = await first.api('POST', '/memory/ingest', {
        agent_id: 'raw',
        conversation_id: 'c',
        skip_extraction: true,
        turns: [{ user: 'My name is Linus and I live in Oslo.', assistant: 'Hello Linus.' }],
      });
      expect(res.status).toBe(200);
    } finally {
      await first.stop(); // flushes the distiller
    }
    const again = await startEngine({
      dataDir,
      dbKey: first.dbKey,
      token: first.token,
      config: { distiller: { recoverDelayMs: 10 } },
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const agents = await again.api<AgentsResponse>('GET', '/agents');
      expect(agents.body.agents.find((a) => a.id === 'raw')).toMatchObject({
        transcript_count: 2,
        pending_count: 0,
        episode_count: 0,
        pinned_count: 0,
      });
    } finally {
      await again.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('makes ingested text searchable for that agent only', async () => {
    await h.api('POST', '/memory/ingest', {
      agent_id: 'owner',
      conversation_id: 'c',
      skip_extraction: true,
      turns: [{ user: 'The vault combination is zebra-quartz-917.', assistant: 'Stored.' }],
    });
    const mine = await h.api<SearchResponse>('POST', '/memory/search', {
      agent_id: 'owner',
      scope: 'transcript',
      query: 'vault combination',
    });
    expect(mine.status).toBe(200);
    expect(mine.body.results.map((r) => r.content).join(' ')).toContain('zebra-quartz-917');
    const theirs = await h.api<SearchResponse>('POST', '/memory/search', {
      agent_id: 'intruder',
      scope: 'transcript',
      query: 'vault combination zebra-quartz-917',
    });
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain('zebra');
  });

  it('rejects FTS syntax in search queries with a 4xx or answers, never a 5xx', async () => {
    for (const query of [
      '"',
      '*',
      'NEAR(',
      'AND',
      'vault AND',
      '"unbalanced',
      'a OR',
      '(',
      ')',
      '-',
      '^x',
      'col:x',
    ]) {
      const res = await h.api('POST', '/memory/search', {
        agent_id: 'owner',
        scope: 'transcript',
        query,
      });
      expect(res.status, query).toBeLessThan(500);
    }
    expect((await h.api('GET', '/agents')).status).toBe(200);
  });
});

describe('agent isolation through the proxy', () => {
  it("injects an agent's own memory and never another agent's", async () => {
    await h.api('POST', '/memory/ingest', {
      agent_id: 'alice',
      conversation_id: 'a1',
      turns: [
        { user: 'My dog is named Biscuit.', assistant: 'What a lovely name for a dog!' },
        { user: 'My favourite colour is teal.', assistant: 'Teal is a great colour.' },
      ],
    });
    const client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
    const question = "What is my dog's name? Do you remember what I told you about my dog Biscuit?";
    h.upstream.reset();
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: question }] },
      { headers: { 'X-Osaurus-Agent-Id': 'bob' } },
    );
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: question }] },
      { headers: { 'X-Osaurus-Agent-Id': 'alice' } },
    );
    const [forBob, forAlice] = h.upstream.chatRequests();
    const bobMessages = JSON.stringify(forBob!.body);
    expect(bobMessages).not.toContain('lovely name');
    expect(bobMessages).not.toContain('teal');
    expect(bobMessages).not.toContain('[Memory]');
    // Positive control: the same question from alice gets alice's memory.
    const aliceBody = forAlice!.body as { messages: { content: string }[] };
    // After the user's words (DESIGN §9).
    expect(aliceBody.messages[0]!.content.startsWith(`${question}\n\n[Memory]`)).toBe(true);
    expect(aliceBody.messages[0]!.content).toContain('Biscuit');
    expect(aliceBody.messages[0]!.content.endsWith('[/Memory]')).toBe(true);
    await h.idle();
    // Recorded without the memory block.
    const recorded = rows('alice')
      .filter((r) => r.role === 'user')
      .map((r) => r.content);
    expect(recorded).toContain(question);
    expect(recorded.some((c) => c.includes('[Memory]'))).toBe(false);
  });
});

describe('encryption at rest', () => {
  it('keeps conversation text out of the database file and its WAL', async () => {
    const marker = 'PLAINTEXT-CANARY-' + Date.now().toString(36);
    await h.api('POST', '/memory/ingest', {
      agent_id: 'canary',
      conversation_id: 'c',
      skip_extraction: true,
      turns: [{ user: `remember ${marker}`, assistant: `ok ${marker}` }],
    });
    const client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
    h.upstream.enqueue({ kind: 'chat', content: `answer ${marker}-chat` });
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: `say ${marker}-chat` }] },
      { headers: { 'X-Osaurus-Agent-Id': 'canary' } },
    );
    await h.idle();
    expect(rows('canary').length).toBe(4);
    for (const file of [h.services.dbPath, h.services.dbPath + '-wal']) {
      const bytes = readFileSync(file);
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(Buffer.from('PLAINTEXT-CANARY'))).toBe(false);
      expect(bytes.includes(Buffer.from('CREATE TABLE'))).toBe(false);
      expect(bytes.includes(Buffer.from(h.token))).toBe(false);
    }
  });
});
