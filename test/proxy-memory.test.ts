import { toolCallCompletion } from './helpers/scripted-upstream.ts';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
let client: OpenAI;
beforeAll(async () => {
  // Scripted answers are queued per test: no Core Model request may take one (the distiller
  // would use the chat model of a loopback upstream by default).
  h = await startEngine({ config: { coreModel: 'off' } });
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
  // Memory for agent "mem": a pinned fact the gate will choose for "my <noun>" questions.
  const res = await h.api('POST', '/memory/pinned', {
    agent_id: 'mem',
    content: 'The user keeps bees in Lisbon and calls the hive Honeybadger.',
    pinned_by_user: true,
  });
  expect(res.status).toBeLessThan(300);
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

const QUESTION = 'Do you remember what I named my hive?';
const agentHeaders = (extra: Record<string, string> = {}) => ({
  headers: { 'X-Osaurus-Agent-Id': 'mem', ...extra },
});
const rows = (conversation: string) =>
  h.services.db
    .prepare(
      `SELECT role, content FROM transcript WHERE agent_id = 'mem' AND conversation_id = ? ORDER BY id`,
    )
    .all(conversation) as { role: string; content: string }[];

describe('proxy with memory', () => {
  it('injects the block into the latest user message only, and forwards the rest unchanged', async () => {
    const messages = [
      { role: 'system' as const, content: 'You are kind.' },
      { role: 'user' as const, content: 'Hello!' },
      { role: 'assistant' as const, content: 'Hi! How can I help?' },
      { role: 'user' as const, content: QUESTION },
    ];
    await client.chat.completions.create(
      { model: 'scripted-model', messages, temperature: 0.2, seed: 7 },
      agentHeaders(),
    );
    const sent = h.upstream.chatRequests()[0]!.body as {
      messages: { role: string; content: string }[];
      temperature: number;
      seed: number;
    };
    expect(sent.temperature).toBe(0.2);
    expect(sent.seed).toBe(7);
    expect(sent.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    // After the user's text (DESIGN §9): the message keeps its beginning byte for byte.
    const last = sent.messages[3]!.content;
    expect(last.startsWith(QUESTION + '\n\n')).toBe(true);
    expect(last.slice(QUESTION.length + 2)).toMatch(
      /^\[Memory\][\s\S]*Honeybadger[\s\S]*\[\/Memory\]$/,
    );
  });

  it('injects a trailing text part for multimodal content', async () => {
    const content = [
      { type: 'text' as const, text: QUESTION },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } },
    ];
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content }] },
      agentHeaders(),
    );
    const sent = h.upstream.chatRequests()[0]!.body as {
      messages: { content: { type: string; text?: string }[] }[];
    };
    const parts = sent.messages[0]!.content;
    expect(parts).toHaveLength(3);
    expect(parts.slice(0, 2)).toEqual(content);
    expect(parts[2]!.type).toBe('text');
    expect(parts[2]!.text).toContain('Honeybadger');
  });

  it('injects and records nothing when memory is disabled in the settings', async () => {
    expect((await h.api('PUT', '/settings', { enabled: false })).status).toBe(200);
    try {
      await client.chat.completions.create(
        { model: 'scripted-model', messages: [{ role: 'user', content: QUESTION }] },
        agentHeaders({ 'X-Osaurus-Conversation-Id': 'while-disabled' }),
      );
      expect(JSON.stringify(h.upstream.chatRequests()[0]!.body)).not.toContain('[Memory]');
      await h.idle();
      expect(rows('while-disabled')).toEqual([]);
    } finally {
      await h.api('PUT', '/settings', { enabled: true });
    }
  });

  it('derives a stable conversation id from the first user message', async () => {
    const first = { role: 'user' as const, content: 'Let us plan the honey harvest.' };
    h.upstream.enqueue({ kind: 'chat', content: 'Sure, when?' }, { kind: 'chat', content: 'OK.' });
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [first] },
      agentHeaders(),
    );
    await client.chat.completions.create(
      {
        model: 'scripted-model',
        messages: [
          first,
          { role: 'assistant', content: 'Sure, when?' },
          { role: 'user', content: 'In June.' },
        ],
      },
      agentHeaders(),
    );
    await h.idle();
    const ids = h.services.db
      .prepare(
        `SELECT DISTINCT conversation_id AS c FROM transcript WHERE agent_id = 'mem' AND content IN ('In June.', 'Let us plan the honey harvest.')`,
      )
      .all() as { c: string }[];
    expect(ids).toHaveLength(1);
    expect(rows(ids[0]!.c).map((r) => r.content)).toEqual([
      'Let us plan the honey harvest.',
      'Sure, when?',
      'In June.',
      'OK.',
    ]);
  });

  it('records only the answer of a tool-result continuation (its user turn is already recorded)', async () => {
    const conv = { 'X-Osaurus-Conversation-Id': 'tools-1' };
    h.upstream.enqueue(toolCallCompletion('weather'), { kind: 'chat', content: 'It is sunny.' });
    const user = { role: 'user' as const, content: 'Weather for the bees?' };
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [user] },
      agentHeaders(conv),
    );
    await client.chat.completions.create(
      {
        model: 'scripted-model',
        messages: [
          user,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 't1', type: 'function', function: { name: 'weather', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 't1', content: '{"sky":"clear"}' },
        ],
      },
      agentHeaders(conv),
    );
    await h.idle();
    expect(rows('tools-1')).toEqual([
      { role: 'user', content: 'Weather for the bees?' },
      { role: 'assistant', content: 'It is sunny.' },
    ]);
  });
});
