import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
let client: OpenAI;
beforeAll(async () => {
  h = await startEngine();
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

const transcriptRows = (agent: string) =>
  h.services.db
    .prepare('SELECT role, content, conversation_id FROM transcript WHERE agent_id = ? ORDER BY id')
    .all(agent) as { role: string; content: string; conversation_id: string }[];

describe('proxy: POST /v1/chat/completions', () => {
  it('passes a request without agent header through unchanged and records nothing', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Paris.' });
    const request = {
      model: 'scripted-model',
      messages: [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'Capital of France?' },
      ],
      temperature: 0.3,
      max_tokens: 50,
      user: 'someone',
    };
    const res = await client.chat.completions.create(request);
    expect(res.choices[0]!.message.content).toBe('Paris.');
    const seen = h.upstream.chatRequests()[0]!;
    expect(seen.body).toEqual(request);
    expect(seen.headers.authorization).toBeUndefined();
    await h.idle();
    const count = h.services.db.prepare('SELECT count(*) AS n FROM transcript').get() as {
      n: number;
    };
    expect(count.n).toBe(0);
  });

  it('records the turn once with the agent header (non-streaming)', async () => {
    h.upstream.enqueue({ kind: 'chat', content: 'Nice to meet you, Ada.' });
    const res = await client.chat.completions.create(
      {
        model: 'scripted-model',
        messages: [{ role: 'user', content: 'Hi, I am Ada and I build looms.' }],
      },
      { headers: { 'X-Osaurus-Agent-Id': 'agent-ns' } },
    );
    expect(res.choices[0]!.message.content).toBe('Nice to meet you, Ada.');
    await h.idle();
    const rows = transcriptRows('agent-ns');
    expect(rows.map((r) => [r.role, r.content])).toEqual([
      ['user', 'Hi, I am Ada and I build looms.'],
      ['assistant', 'Nice to meet you, Ada.'],
    ]);
    expect(rows[0]!.conversation_id).toMatch(/^agent-ns:[0-9a-f]{16}$/);
    const signals = h.services.db
      .prepare(`SELECT count(*) AS n FROM pending_signals WHERE agent_id = 'agent-ns'`)
      .get() as { n: number };
    expect(signals.n).toBe(1);
  });

  it('streams chunks as they arrive and records the assembled answer', async () => {
    h.upstream.enqueue({
      kind: 'stream',
      chunks: ['The ', 'answer ', 'is ', '42.'],
      delayMs: 120,
    });
    const stream = await client.chat.completions.create(
      {
        model: 'scripted-model',
        stream: true,
        messages: [{ role: 'user', content: 'What is the answer?' }],
      },
      { headers: { 'X-Osaurus-Agent-Id': 'agent-s', 'X-Osaurus-Conversation-Id': 'conv-1' } },
    );
    let text = '';
    let firstContentAt: number | null = null;
    for await (const part of stream) {
      const delta = part.choices[0]?.delta?.content ?? '';
      if (delta && firstContentAt === null) firstContentAt = performance.now();
      text += delta;
    }
    expect(text).toBe('The answer is 42.');
    const sent = h.upstream.chatRequests()[0]!.chunkSentAt;
    // The client saw content long before the upstream sent its last chunk: no buffering.
    expect(firstContentAt).not.toBeNull();
    expect(firstContentAt!).toBeLessThan(sent.at(-1)!);
    expect(sent.at(-1)! - firstContentAt!).toBeGreaterThan(200);
    await h.idle();
    expect(transcriptRows('agent-s')).toEqual([
      { role: 'user', content: 'What is the answer?', conversation_id: 'conv-1' },
      { role: 'assistant', content: 'The answer is 42.', conversation_id: 'conv-1' },
    ]);
  });

  it('lists the upstream models', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['scripted-model', 'scripted-core']);
  });
});
