// Retrieval for a plain user/assistant chat, end to end through the real server with no Core
// Model (heuristic distiller): the issue-3 scenario ("my name is Ada and I work at Acme" →
// later, in a new conversation, "where do I work?" gets it back within the budget; a haiku
// gets nothing), and the prompt fixtures against a distilled personal memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextResponse } from '../src/shared/api.ts';
import { countTokens } from '../src/main/engine/memory/tokens.ts';
import { listEpisodes } from '../src/main/engine/store/episodes.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

const dir = join(import.meta.dirname, 'fixtures', 'prompts');
const load = <T>(name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;
const unrelated = load<string[]>('unrelated.json');
const memoryQuestions = load<string[]>('memory-questions.json');
const personalChat = load<{
  sessions: { date: string; turns: { user: string; assistant: string }[] }[];
}>('personal-chat.json');

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({
    config: { distiller: { debounceMsOverride: 80, retryDelayMs: 30, recoverDelayMs: 20 } },
  });
  h.upstream.setDefault(() => ({ kind: 'chat', content: 'Noted!' }));
});

afterAll(async () => {
  await h?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function client(agent: string, conversation: string): OpenAI {
  return new OpenAI({
    baseURL: `${h.url}/v1`,
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: { 'X-Osaurus-Agent-Id': agent, 'X-Osaurus-Conversation-Id': conversation },
  });
}

/** Sends one message in a new conversation and returns what the upstream received. */
async function ask(agent: string, conversation: string, content: string): Promise<string> {
  await client(agent, conversation).chat.completions.create({
    model: 'scripted-model',
    messages: [{ role: 'user', content }],
  });
  const sent = h.upstream.chatRequests().at(-1)?.body as { messages: { content: string }[] };
  return sent.messages.at(-1)?.content ?? '';
}

/** The block Cairn added after the user's words ('' when none). */
const memoryBlock = (sent: string) => {
  const at = sent.indexOf('\n\n[Memory]\n');
  return at === -1 ? '' : sent.slice(at + 2, sent.indexOf('[/Memory]', at) + '[/Memory]'.length);
};

const settings = async (patch: Record<string, unknown>) =>
  expect((await h.api('PUT', '/settings', patch)).status).toBe(200);

describe('issue 3: Ada at Acme, heuristic distiller, real server', () => {
  it('remembers the employer in a new conversation, within the budget; a haiku gets nothing', async () => {
    await ask('ada', 'intro', 'My name is Ada and I work at Acme.');
    await until(
      () => listEpisodes(h.services.db, { agentId: 'ada', limit: 5, offset: 0 }).total > 0,
    );

    for (const budget of [800, 300, 100]) {
      await settings({ memoryBudgetTokens: budget });
      const question = 'Where do I work?';
      const sent = await ask('ada', `later-${budget}`, question);
      const block = memoryBlock(sent);
      expect(block).toContain('Acme');
      expect(countTokens(block)).toBeLessThanOrEqual(budget);
      expect(sent.startsWith(`${question}\n\n[Memory]`)).toBe(true);
    }
    await settings({ memoryBudgetTokens: 800 });

    expect(await ask('ada', 'poem', 'Write a haiku about the sea')).toBe(
      'Write a haiku about the sea',
    );
    const name = await ask('ada', 'who', "What's my name?");
    expect(memoryBlock(name)).toContain('Ada');
  });
});

describe('a distilled personal chat memory', () => {
  beforeAll(async () => {
    for (const [n, s] of personalChat.sessions.entries()) {
      const res = await h.api('POST', '/memory/ingest', {
        agent_id: 'nora',
        conversation_id: `s${n}`,
        session_date: s.date,
        turns: s.turns,
      });
      expect(res.status).toBe(200);
    }
    await h.idle();
  });

  const context = async (message: string) =>
    (await h.api<ContextResponse>('POST', '/memory/context', { agent_id: 'nora', message })).body;

  it('injects nothing for any unrelated prompt', async () => {
    const injected: string[] = [];
    for (const p of unrelated) if ((await context(p)).block !== '') injected.push(p.slice(0, 80));
    expect(injected).toEqual([]);
  });

  it('gives memory to every question about the user', async () => {
    const missed: string[] = [];
    for (const q of memoryQuestions) if ((await context(q)).block === '') missed.push(q);
    expect(missed).toEqual([]);
  });

  it('answers the typical questions with the right memory', async () => {
    const expectations: [string, string][] = [
      ["What's my dog's name?", 'Pepper'],
      ['Where do I work?', 'Lumen Labs'],
      ['When did I go to Paris?', 'Paris'],
      ['What did we decide about the database?', 'Postgres'],
      ["Remind me of my sister's birthday", '14 May'],
      ['Do you remember what I said about my job?', 'designer'],
    ];
    for (const [q, expected] of expectations) {
      const r = await context(q);
      expect(r.block, q).toContain(expected);
      expect(r.tokens).toBeLessThanOrEqual(800);
    }
  });
});
