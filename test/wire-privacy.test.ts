// Privacy in the wire formats (issues 10 and 13), through the real server and the official
// clients: the OpenAI Responses chain kept for a translated upstream stores no `<private>` span
// (a continued chain replays `[private]`); a derived conversation id is a hash of the first
// message with its private spans already replaced, in every format; Claude Code's
// `<system-reminder>` blocks are forwarded but neither recorded nor used to look memory up.
import Anthropic from '@anthropic-ai/sdk';
import { createHash } from 'node:crypto';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findInDatabase } from './helpers/db-dump.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

/** Digits at the end keep the stemmer off it; each test adds its own suffix. */
const SECRET = 'zqxpin';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
  const res = await h.api('POST', '/memory/pinned', {
    agent_id: 'coder',
    content: 'The user keeps bees in Lisbon and calls the hive Honeybadger.',
    pinned_by_user: true,
  });
  expect(res.status).toBeLessThan(300);
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

const openai = (agent: string) =>
  new OpenAI({
    baseURL: h.url + '/v1',
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: { 'X-Osaurus-Agent-Id': agent },
  });
const anthropic = (agent: string) =>
  new Anthropic({
    baseURL: h.url,
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: { 'X-Osaurus-Agent-Id': agent },
  });
const ollama = (agent: string) =>
  new Ollama({
    host: h.url,
    headers: { Authorization: `Bearer ${h.token}`, 'X-Osaurus-Agent-Id': agent },
  });

const sentMessages = (i: number) =>
  (h.upstream.chatRequests()[i]!.body as { messages: Record<string, unknown>[] }).messages;
const transcript = (agent: string) =>
  h.services.db
    .prepare(
      'SELECT role, content, conversation_id AS conversationId FROM transcript WHERE agent_id = ? ORDER BY id',
    )
    .all(agent) as { role: string; content: string; conversationId: string }[];
const idFor = (agent: string, text: string) =>
  `${agent}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

describe('the Responses chain (translated upstream) stores no private span', () => {
  it('keeps [private] in the stored chain and replays it; the first request went out as sent', async () => {
    const secret = `${SECRET}1001`;
    h.upstream.enqueue(
      { kind: 'chat', content: `Noted, I will keep <private>${secret}</private> to myself.` },
      { kind: 'chat', content: 'You asked me to keep it private.' },
    );
    const client = openai('codex-private');
    const first = await client.responses.create({
      model: 'local-model',
      input: [
        {
          role: 'user',
          content: [{ type: 'input_text', text: `My door code is <private>${secret}</private>.` }],
        },
      ],
    });
    // The upstream got the user's request unchanged.
    expect(JSON.stringify(sentMessages(0))).toContain(`<private>${secret}</private>`);

    await client.responses.create({
      model: 'local-model',
      previous_response_id: first.id,
      input: 'What did I ask you to keep?',
    });
    const replayed = sentMessages(1);
    expect(replayed.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(replayed[0])).toContain('My door code is [private].');
    expect(replayed[1]).toEqual({
      role: 'assistant',
      content: 'Noted, I will keep [private] to myself.',
    });
    expect(JSON.stringify(replayed)).not.toContain(secret);

    await h.idle();
    expect(findInDatabase(h.services.db, secret)).toEqual([]);
  });
});

describe('a derived conversation id hashes the first message with private spans replaced', () => {
  const first = (n: number) => `Remember my locker code <private>${SECRET}${n}</private>, please.`;
  const scrubbed = 'Remember my locker code [private], please.';

  it('in chat completions, Anthropic Messages, Responses and Ollama chat', async () => {
    await openai('ids-chat').chat.completions.create({
      model: 'scripted-model',
      messages: [{ role: 'user', content: first(2001) }],
    });
    await anthropic('ids-anthropic').messages.create({
      model: 'claude-test',
      max_tokens: 64,
      messages: [{ role: 'user', content: first(2002) }],
    });
    await openai('ids-responses').responses.create({
      model: 'local-model',
      input: first(2003),
      store: false,
    });
    await ollama('ids-ollama').chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: first(2004) }],
      stream: false,
    });
    await h.idle();
    for (const [n, agent] of [
      'ids-chat',
      'ids-anthropic',
      'ids-responses',
      'ids-ollama',
    ].entries()) {
      const rows = transcript(agent);
      expect(rows.map((r) => r.role)).toEqual(['user', 'assistant']);
      expect(rows[0]!.content).toBe(scrubbed);
      // The id is the hash of what was stored, not of the secret the user typed.
      for (const row of rows) {
        expect(row.conversationId).toBe(idFor(agent, scrubbed));
        expect(row.conversationId).not.toBe(idFor(agent, first(2001 + n)));
      }
    }
  });

  it('puts later turns of the conversation under the same id', async () => {
    const client = openai('ids-later');
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: first(2101) }];
    const a = await client.chat.completions.create({ model: 'scripted-model', messages: history });
    history.push(
      { role: 'assistant', content: a.choices[0]!.message.content ?? '' },
      { role: 'user', content: 'And the bike lock?' },
    );
    await client.chat.completions.create({ model: 'scripted-model', messages: history });
    await h.idle();
    const ids = new Set(transcript('ids-later').map((r) => r.conversationId));
    expect([...ids]).toEqual([idFor('ids-later', scrubbed)]);
  });
});

describe("Claude Code's system-reminder blocks", () => {
  const reminder = (body: string) => `<system-reminder>\n${body}\n</system-reminder>`;
  // A reminder that would make memory answer a question the user did not ask.
  const CLAUDE_MD = reminder(
    'As you answer the user, use this context.\n# claudeMd\nDo you remember what I named my hive?',
  );
  const TODOS = reminder('The todo list is empty. Do not mention this to the user.');

  it('are forwarded, but neither recorded nor used to look memory up', async () => {
    const client = anthropic('claude-code');
    const user = 'Thanks, that is all for today.';
    const { response } = await client.messages
      .create({
        model: 'claude-test',
        max_tokens: 64,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: CLAUDE_MD },
              { type: 'text', text: `${user}\n\n${TODOS}` },
            ],
          },
        ],
      })
      .withResponse();
    // The reminders asked about the hive; the user did not: no block.
    expect(response.headers.get('x-cairn-memory')).toMatch(/^none; /);
    const forwarded = JSON.stringify(sentMessages(0));
    expect(forwarded).toContain('# claudeMd');
    expect(forwarded).toContain('The todo list is empty.');
    expect(forwarded).not.toContain('[Memory]');

    await h.idle();
    const rows = transcript('claude-code');
    expect(rows.map((r) => [r.role, r.content])).toEqual([
      ['user', user],
      ['assistant', 'ok'],
    ]);
    const search = await h.api<{ results: unknown[] }>('POST', '/memory/search', {
      agent_id: 'claude-code',
      scope: 'transcript',
      query: 'claudeMd todo',
    });
    expect(search.status).toBe(200);
    expect(search.body.results).toEqual([]);
  });

  it("leave the user's own question to the memory lookup", async () => {
    await h.api('POST', '/memory/pinned', {
      agent_id: 'claude-code-2',
      content: 'The user keeps bees in Lisbon and calls the hive Honeybadger.',
      pinned_by_user: true,
    });
    const { response } = await anthropic('claude-code-2')
      .messages.create({
        model: 'claude-test',
        max_tokens: 64,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: TODOS },
              { type: 'text', text: 'Do you remember what I named my hive?' },
            ],
          },
        ],
      })
      .withResponse();
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; /);
    expect(JSON.stringify(sentMessages(0))).toContain('Honeybadger');
    await h.idle();
    expect(transcript('claude-code-2')[0]!.content).toBe('Do you remember what I named my hive?');
  });

  it('leave a message of nothing but reminders unrecorded, its answer recorded', async () => {
    await openai('claude-code-3').chat.completions.create({
      model: 'scripted-model',
      messages: [{ role: 'user', content: `${CLAUDE_MD}\n${TODOS}` }],
    });
    await h.idle();
    expect(transcript('claude-code-3').map((r) => r.role)).toEqual(['assistant']);
  });
});
