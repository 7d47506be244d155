// Sticky memory in chat completions (DESIGN §9): the bytes added to a user message come back
// unchanged when the client re-sends it, so the upstream sees each earlier request's messages as
// an exact prefix of the next one; tool-only continuations get no fresh block; every response
// to a request with the agent header says what memory did.
import { toolCallCompletion } from './helpers/scripted-upstream.ts';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
let client: OpenAI;
beforeAll(async () => {
  h = await startEngine();
  client = new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0 });
  const res = await h.api('POST', '/memory/pinned', {
    agent_id: 'sticky',
    content: 'The user keeps bees in Lisbon and calls the hive Honeybadger.',
    pinned_by_user: true,
  });
  expect(res.status).toBeLessThan(300);
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

type Msg = { role: 'user' | 'assistant' | 'system'; content: string };
const sentMessages = (i: number) =>
  (h.upstream.chatRequests()[i]!.body as { messages: unknown[] }).messages;

async function turn(messages: Msg[], conversation: string) {
  const { data, response } = await client.chat.completions
    .create(
      { model: 'scripted-model', messages },
      { headers: { 'X-Osaurus-Agent-Id': 'sticky', 'X-Osaurus-Conversation-Id': conversation } },
    )
    .withResponse();
  return {
    answer: data.choices[0]!.message.content ?? '',
    header: response.headers.get('x-cairn-memory'),
  };
}

describe('sticky memory (chat completions)', () => {
  it('keeps every earlier request an exact prefix of the next one, even when memory changed', async () => {
    const history: Msg[] = [{ role: 'system', content: 'You are kind.' }];
    const questions = [
      'Do you remember what I named my hive?',
      'Where do my bees live?',
      'What should I feed my hive in winter?',
    ];
    const headers: (string | null)[] = [];
    for (const [n, q] of questions.entries()) {
      history.push({ role: 'user', content: q });
      const { answer, header } = await turn(history, 'prefix-chat');
      headers.push(header);
      history.push({ role: 'assistant', content: answer });
      if (n === 0) {
        // Memory changes between turns: a fresh lookup for the first question would now give
        // another block; the re-sent message must still carry the one it had.
        await h.api('POST', '/memory/pinned', {
          agent_id: 'sticky',
          content: 'The hive Honeybadger moved to a rooftop in Porto.',
          pinned_by_user: true,
        });
      }
    }
    expect(headers[0]).toMatch(/^injected; tokens=\d+; section=\w+$/);
    for (let n = 1; n < questions.length; n++) {
      const before = sentMessages(n - 1);
      const after = sentMessages(n);
      expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
    }
    expect(JSON.stringify(sentMessages(0))).toContain('Honeybadger');
    expect(JSON.stringify(sentMessages(0))).not.toContain('Porto');
    // what the client sent is never changed besides the appended block
    expect((sentMessages(2)[1] as Msg).content.startsWith(questions[0]! + '\n\n[Memory]')).toBe(
      true,
    );
  });

  it('adds no fresh block to a tool-only continuation but keeps the block of its user message', async () => {
    h.upstream.enqueue(toolCallCompletion('hive'));
    const user = { role: 'user' as const, content: 'Do you remember what I named my hive?' };
    const headers = { 'X-Osaurus-Agent-Id': 'sticky', 'X-Osaurus-Conversation-Id': 'tools-chat' };
    await client.chat.completions.create(
      { model: 'scripted-model', messages: [user] },
      { headers },
    );
    const { response } = await client.chat.completions
      .create(
        {
          model: 'scripted-model',
          messages: [
            user,
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 't1', type: 'function', function: { name: 'hive', arguments: '{}' } },
              ],
            },
            { role: 'tool', tool_call_id: 't1', content: '{"hive":"ok"}' },
          ],
        },
        { headers },
      )
      .withResponse();
    const first = sentMessages(0);
    const second = sentMessages(1);
    expect(JSON.stringify(second[0])).toBe(JSON.stringify(first[0]));
    expect(JSON.stringify(second).match(/\[Memory\]/g)).toHaveLength(1);
    // The newest user message carries its (re-inserted) block.
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; /);
  });

  it('says why nothing was injected', async () => {
    const headers = { 'X-Osaurus-Agent-Id': 'sticky' };
    const { response } = await client.chat.completions
      .create(
        { model: 'scripted-model', messages: [{ role: 'user', content: 'Hi!' }] },
        { headers },
      )
      .withResponse();
    expect(response.headers.get('x-cairn-memory')).toMatch(/^none; reason=[a-z-]+$/);
    const plain = await client.chat.completions
      .create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Hi!' }] })
      .withResponse();
    // Without the agent header there is no memory, and the header says why (issue 12).
    expect(plain.response.headers.get('x-cairn-memory')).toBe('none; reason=no-agent-header');
    expect((await h.api('PUT', '/settings', { enabled: false })).status).toBe(200);
    try {
      const paused = await client.chat.completions
        .create(
          { model: 'scripted-model', messages: [{ role: 'user', content: 'Hi!' }] },
          { headers },
        )
        .withResponse();
      expect(paused.response.headers.get('x-cairn-memory')).toBe('none; reason=memory-paused');
    } finally {
      await h.api('PUT', '/settings', { enabled: true });
    }
  });
});
