// POST /memory/context and memory injection on POST /v1/chat/completions, through the real
// server with the official openai client; the scripted upstream records what it was sent.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextResponse } from '../src/shared/api.ts';
import { getPinned, insertPinned } from '../src/main/engine/store/pinned.ts';
import { putIdentity } from '../src/main/engine/store/identity.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness;
let client: OpenAI;
let factId: number;

beforeAll(async () => {
  h = await startEngine();
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
  const res = await h.api('POST', '/memory/ingest', {
    agent_id: 'sam',
    conversation_id: 'chat-1',
    session_date: '2024-05-08T09:00:00Z',
    skip_extraction: true,
    turns: [
      {
        user: 'Helena: I went to a LGBTQ support group yesterday and it was so powerful.',
        assistant: 'Rosalind: That is amazing, Helena! What did you talk about there?',
      },
      {
        user: 'Helena: Mostly about transition stories. It gave me courage.',
        assistant: 'Rosalind: I am proud of you. I painted a lake sunrise last year, by the way.',
      },
    ],
  });
  expect(res.status).toBe(200);
  const now = Date.now();
  factId = insertPinned(
    h.services.db,
    {
      agentId: 'sam',
      content: 'Rosalind runs a pottery workshop with her kids',
      salience: 0.7,
      tags: [],
      pinnedByUser: false,
      sourceEpisodeId: null,
    },
    now,
  );
  putIdentity(h.services.db, 'sam', { overrides: ['The user is called Sam'] }, now);
});

afterAll(async () => {
  await h?.stop();
});

async function context(agent_id: string, message: string) {
  const res = await h.api('POST', '/memory/context', { agent_id, message });
  expect(res.status).toBe(200);
  return ContextResponse.parse(res.body);
}

describe('POST /memory/context', () => {
  it('previews the block for a memory question without bumping usage', async () => {
    const r = await context('sam', 'When did Helena go to the LGBTQ support group?');
    expect(r.section).toBe('episode');
    expect(r.block).toMatch(/^\[Memory\]\n## /);
    expect(r.block).not.toMatch(/Current date|\d{2}:\d{2}/); // no per-request value
    expect(r.block).toContain('- The user is called Sam');
    expect(r.block).toContain(
      '[2024-05-08] Helena: I went to a LGBTQ support group yesterday and it was so powerful.',
    );
    expect(r.block.endsWith('[/Memory]')).toBe(true);
    expect(r.tokens).toBeGreaterThan(0);
    expect(r.tokens).toBeLessThanOrEqual(800);

    const pinned = await context('sam', 'What does Rosalind do with her kids?');
    expect(pinned.section).toBe('pinned');
    expect(pinned.block).toContain('## Facts\n- Rosalind runs a pottery workshop with her kids');
    expect(getPinned(h.services.db, 'sam', factId)?.use_count).toBe(0);
  });

  it('injects nothing for unrelated prompts or unknown agents', async () => {
    for (const message of ['Write a haiku about the sea', 'Explain quicksort', 'What is 2+2?']) {
      expect(await context('sam', message)).toEqual({ section: 'none', block: '', tokens: 0 });
    }
    expect(await context('nobody', 'When did Helena go to the support group?')).toEqual({
      section: 'none',
      block: '',
      tokens: 0,
    });
  });

  it('validates the body', async () => {
    expect((await h.api('POST', '/memory/context', { message: 'x' })).status).toBe(400);
    expect((await h.api('POST', '/memory/context', { agent_id: 'sam' })).status).toBe(400);
  });
});

describe('memory injection on /v1/chat/completions', () => {
  it('prepends the block to the latest user message and bumps usage of what it used', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'She runs a pottery workshop.' });
    const question = 'What does Rosalind do with her kids?';
    const completion = await client.chat.completions.create(
      {
        model: 'test-model',
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: question },
        ],
      },
      { headers: { 'X-Osaurus-Agent-Id': 'sam' } },
    );
    expect(completion.choices[0]?.message.content).toBe('She runs a pottery workshop.');
    const sent = h.upstream.chatRequests().at(-1)?.body as {
      messages: { role: string; content: string }[];
    };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    const user = sent.messages[1]?.content ?? '';
    // After the user's words (DESIGN §9: the newest user message ends with the block).
    expect(user.startsWith(`${question}\n\n[Memory]\n## `)).toBe(true);
    expect(user).toContain('Rosalind runs a pottery workshop with her kids');
    expect(user.endsWith('[/Memory]')).toBe(true);
    await h.idle();
    expect(getPinned(h.services.db, 'sam', factId)?.use_count).toBe(1);
  });

  it('forwards unrelated prompts untouched', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Waves fold on the shore' });
    await client.chat.completions.create(
      { model: 'test-model', messages: [{ role: 'user', content: 'Write a haiku about the sea' }] },
      { headers: { 'X-Osaurus-Agent-Id': 'sam' } },
    );
    const sent = h.upstream.chatRequests().at(-1)?.body as {
      messages: { content: string }[];
    };
    expect(sent.messages[0]?.content).toBe('Write a haiku about the sea');
    await h.idle();
  });
});
