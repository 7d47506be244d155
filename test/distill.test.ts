// The write path end to end: conversations sent with the official `openai` client through the
// real server are distilled after the debounce (Core Model played by the scripted upstream,
// which listens on loopback like a local Ollama: in auto mode the chat's own model distils),
// `--core-model off` / CAIRN_CORE_MODEL=off keeps every distillation request away from the
// upstream, prose from the Core Model falls back to the heuristic stage at once, a Core Model
// that is down ends in a dead letter with the transcript intact and heuristic memory, and
// signals pending when `cairn serve` is SIGKILLed are distilled after restart.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { listEpisodes } from '../src/main/engine/store/episodes.ts';
import { getIdentity } from '../src/main/engine/store/identity.ts';
import type { Db } from '../src/main/engine/store/db.ts';
import { listPinned } from '../src/main/engine/store/pinned.ts';
import { listProcessingLog } from '../src/main/engine/store/processing-log.ts';
import { listSignals } from '../src/main/engine/store/signals.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';
import { startServeChild } from './helpers/serve-child.ts';
import { type RecordedRequest, startScriptedUpstream } from './helpers/scripted-upstream.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

const digest = {
  episode: {
    summary: 'Ada asked for a vegetarian recipe for her Lisbon dinner party.',
    topics: ['cooking', 'dinner party'],
    entities: ['Lisbon'],
    decisions: ['Serve a mushroom risotto'],
    action_items: ['Buy arborio rice'],
    salience: 0.7,
  },
  pinned_candidates: [{ content: 'User is vegetarian', salience: 0.8, tags: ['food'] }],
  identity_facts: ["User's name is Ada", 'User lives in Lisbon'],
};

const isCoreModelCall = (r: RecordedRequest) =>
  (r.body as { response_format?: unknown } | undefined)?.response_format !== undefined;

async function engine(options: { coreModel?: string } = {}): Promise<EngineHarness> {
  const h = await startEngine({
    config: {
      coreModel: options.coreModel ?? 'auto',
      // Long enough that a loaded machine sends a conversation's second turn before the
      // debounce ends (80 ms once let CI distil the first turn alone).
      distiller: { debounceMsOverride: 400, retryDelayMs: 30, recoverDelayMs: 20 },
    },
  });
  cleanups.push(() => h.stop());
  return h;
}

const episodes = (db: Db, agent: string) =>
  listEpisodes(db, { agentId: agent, limit: 50, offset: 0 }).items;
const facts = (db: Db, agent: string) =>
  listPinned(db, { agentId: agent, status: 'all', sort: 'created_at', limit: 50, offset: 0 }).items;

function client(h: EngineHarness, agent: string, conversation?: string) {
  return new OpenAI({
    baseURL: h.url + '/v1',
    apiKey: h.token,
    defaultHeaders: {
      'X-Osaurus-Agent-Id': agent,
      ...(conversation ? { 'X-Osaurus-Conversation-Id': conversation } : {}),
    },
  });
}

describe('distillation through the server', () => {
  it('distils a conversation with the Core Model after the debounce', async () => {
    const h = await engine({ coreModel: 'scripted-core' });
    h.upstream.setDefault((r) =>
      isCoreModelCall(r) ? { kind: 'digest', digest } : { kind: 'chat', content: 'Sure!' },
    );
    const openai = client(h, 'ada', 'dinner');
    await openai.chat.completions.create({
      model: 'scripted-model',
      messages: [{ role: 'user', content: "I'm Ada, I live in Lisbon and I am vegetarian." }],
    });
    await openai.chat.completions.create({
      model: 'scripted-model',
      messages: [
        { role: 'user', content: "I'm Ada, I live in Lisbon and I am vegetarian." },
        { role: 'assistant', content: 'Sure!' },
        { role: 'user', content: 'Suggest a dinner party main course.' },
      ],
    });
    const db = h.services.db;
    await until(() => episodes(db, 'ada').length === 1);
    const core = h.upstream.chatRequests().filter(isCoreModelCall);
    expect(core).toHaveLength(1);
    expect((core[0]!.body as { model: string }).model).toBe('scripted-core');
    expect(core[0]!.rawBody).toContain('Suggest a dinner party main course.');
    expect(episodes(db, 'ada')[0]).toMatchObject({
      summary: digest.episode.summary,
      conversation_id: 'dinner',
      decisions: ['Serve a mushroom risotto'],
    });
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(['User is vegetarian']);
    expect(getIdentity(db, 'ada').overrides).toEqual([
      "User's name is Ada",
      'User lives in Lisbon',
    ]);
    // nothing leaks into another agent
    expect(episodes(db, 'bob')).toHaveLength(0);
  });

  it('auto + a loopback upstream: the chat model distils, one request per conversation', async () => {
    const h = await engine();
    expect((await h.api<{ coreModelMode: string }>('GET', '/settings')).body.coreModelMode).toBe(
      'auto',
    );
    h.upstream.setDefault((r) =>
      isCoreModelCall(r) ? { kind: 'digest', digest } : { kind: 'chat', content: 'Sure!' },
    );
    const openai = client(h, 'ada', 'dinner');
    const first = "I'm Ada, I live in Lisbon and I am vegetarian.";
    await openai.chat.completions.create({
      model: 'llama3.2:3b',
      messages: [{ role: 'user', content: first }],
    });
    await openai.chat.completions.create({
      model: 'llama3.2:3b',
      messages: [
        { role: 'user', content: first },
        { role: 'assistant', content: 'Sure!' },
        { role: 'user', content: 'Suggest a dinner party main course.' },
      ],
    });
    const db = h.services.db;
    await until(() => episodes(db, 'ada').length === 1);
    const core = h.upstream.chatRequests().filter(isCoreModelCall);
    expect(core).toHaveLength(1);
    expect((core[0]!.body as { model: string }).model).toBe('llama3.2:3b');
    expect(core[0]!.rawBody).toContain('Suggest a dinner party main course.');
    expect(episodes(db, 'ada')[0]!.summary).toBe(digest.episode.summary);
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(['User is vegetarian']);
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({
      status: 'ok',
      model: 'llama3.2:3b',
    });
  });

  it('auto: Anthropic, Responses and Ollama chats translated to the upstream are distilled by their model', async () => {
    const h = await engine();
    h.upstream.setDefault((r) =>
      isCoreModelCall(r) ? { kind: 'digest', digest } : { kind: 'chat', content: 'Sure!' },
    );
    const headers = (agent: string) => ({
      'X-Osaurus-Agent-Id': agent,
      'X-Osaurus-Conversation-Id': `${agent}-1`,
    });
    await new Anthropic({
      baseURL: h.url,
      apiKey: h.token,
      maxRetries: 0,
      defaultHeaders: headers('claude'),
    }).messages.create({
      model: 'local-coder',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'I am vegetarian.' }],
    });
    await new OpenAI({
      baseURL: h.url + '/v1',
      apiKey: h.token,
      defaultHeaders: headers('codex'),
    }).responses.create({ model: 'local-codex', input: 'I am vegetarian.' });
    await new Ollama({
      host: h.url,
      headers: { Authorization: `Bearer ${h.token}`, ...headers('webui') },
    }).chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'I am vegetarian.' }] });
    const db = h.services.db;
    await until(() => ['claude', 'codex', 'webui'].every((a) => episodes(db, a).length === 1));
    const core = h.upstream.chatRequests().filter(isCoreModelCall);
    expect(core.map((r) => (r.body as { model: string }).model).sort()).toEqual([
      'llama3.2:3b',
      'local-coder',
      'local-codex',
    ]);
  });

  it('auto: a chat passed through to a separate Anthropic upstream is distilled by the heuristic stage', async () => {
    const upstream = await startScriptedUpstream();
    cleanups.push(() => upstream.close());
    upstream.setDefault((r) =>
      isCoreModelCall(r) ? { kind: 'digest', digest } : { kind: 'chat', content: 'Sure!' },
    );
    // The same scripted server plays the Anthropic provider (its /v1/messages scripts).
    upstream.enqueueAt('/v1/messages', {
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [{ type: 'text', text: 'Noted.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 2 },
      },
    });
    const h = await startEngine({
      upstream,
      config: {
        anthropicUpstreamUrl: `http://127.0.0.1:${upstream.port}`,
        coreModel: 'auto',
        distiller: { debounceMsOverride: 80, retryDelayMs: 30, recoverDelayMs: 20 },
      },
    });
    cleanups.push(() => h.stop());
    await new Anthropic({
      baseURL: h.url,
      apiKey: h.token,
      maxRetries: 0,
      defaultHeaders: { 'X-Osaurus-Agent-Id': 'claude', 'X-Osaurus-Conversation-Id': 'c1' },
    }).messages.create({
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'My name is Ada and I love sailing.' }],
    });
    const db = h.services.db;
    await until(() => episodes(db, 'claude').length === 1);
    // claude-x is the Anthropic provider's model: never sent to the OpenAI-compatible one
    expect(upstream.chatRequests()).toHaveLength(0);
    expect(facts(db, 'claude').map((f) => f.content)).toContain('User loves sailing');
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({ model: 'heuristic' });
  });

  it('--core-model off: no distillation request reaches the upstream, the heuristic stage remembers', async () => {
    const h = await engine({ coreModel: 'off' });
    h.upstream.setDefault((r) =>
      isCoreModelCall(r)
        ? { kind: 'digest', digest }
        : { kind: 'chat', content: 'Nice to meet you!' },
    );
    await client(h, 'ada', 'intro').chat.completions.create({
      model: 'llama3.2:3b',
      messages: [
        {
          role: 'user',
          content: 'My name is Ada. I work at Acme as a data engineer. I love hiking in the Alps.',
        },
      ],
    });
    const db = h.services.db;
    await until(() => episodes(db, 'ada').length === 1);
    expect(h.upstream.chatRequests()).toHaveLength(1); // the chat itself, nothing more
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User loves hiking in the Alps']),
    );
    expect(getIdentity(db, 'ada').overrides).toContain("User's name is Ada");
    expect(listProcessingLog(db, { limit: 5 })[0]).toMatchObject({
      kind: 'distill',
      status: 'ok',
      model: 'heuristic',
    });
    // the settings say what runs
    expect((await h.api<{ coreModelMode: string }>('GET', '/settings')).body.coreModelMode).toBe(
      'off',
    );
  });

  it('a chat model answering prose: the heuristic digest at once, no dead letter, the reason logged', async () => {
    const h = await engine();
    h.upstream.setDefault(() => ({ kind: 'chat', content: 'Noted. Anything else about jazz?' }));
    await client(h, 'ada', 'c1').chat.completions.create({
      model: 'tiny-chat',
      messages: [{ role: 'user', content: 'I love jazz and I live in Berlin.' }],
    });
    const db = h.services.db;
    await until(() => listSignals(db, { statuses: ['processed'], limit: 10 }).length === 1);
    const core = h.upstream.chatRequests().filter(isCoreModelCall);
    expect(core).toHaveLength(1);
    expect((core[0]!.body as { model: string }).model).toBe('tiny-chat');
    expect(listSignals(db, { statuses: ['dead_letter', 'pending'], limit: 10 })).toHaveLength(0);
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(
      expect.arrayContaining(['User loves jazz', 'User lives in Berlin']),
    );
    const [log] = listProcessingLog(db, { limit: 10, kind: 'distill' });
    expect(log).toMatchObject({ status: 'ok', model: 'heuristic' });
    expect(log!.error).toMatch(/tiny-chat answered without a digest/);
    const diagnostics = await h.api<{ processing_log: { error: string | null }[] }>(
      'GET',
      '/memory/diagnostics',
    );
    expect(diagnostics.body.processing_log[0]!.error).toMatch(/answered without a digest/);
    expect(JSON.stringify(listProcessingLog(db, { limit: 10 }))).not.toContain('jazz');
  });

  it('dead-letters a Core Model that is down after 3 attempts, keeping the transcript and heuristic memory', async () => {
    const h = await engine({ coreModel: 'scripted-core' });
    h.upstream.setDefault((r) =>
      isCoreModelCall(r)
        ? { kind: 'error', status: 503, message: 'model is loading' }
        : { kind: 'chat', content: 'Noted.' },
    );
    await client(h, 'ada', 'c1').chat.completions.create({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'I love jazz and I live in Berlin.' }],
    });
    const db = h.services.db;
    await until(() => listSignals(db, { statuses: ['dead_letter'], limit: 10 }).length === 1, 8000);
    expect(h.upstream.chatRequests().filter(isCoreModelCall)).toHaveLength(3);
    const [dead] = listSignals(db, { statuses: ['dead_letter'], limit: 10 });
    expect(dead).toMatchObject({ attempts: 3, agent_id: 'ada' });
    const rows = db
      .prepare(`SELECT content FROM transcript WHERE agent_id = 'ada' ORDER BY id`)
      .all() as { content: string }[];
    expect(rows.map((r) => r.content)).toEqual(['I love jazz and I live in Berlin.', 'Noted.']);
    expect(facts(db, 'ada').map((f) => f.content)).toContain('User loves jazz');
    const statuses = listProcessingLog(db, { limit: 10, kind: 'distill' }).map((l) => l.status);
    expect(statuses).toEqual(['dead_letter', 'error', 'error']);
    expect(JSON.stringify(listProcessingLog(db, { limit: 10 }))).not.toContain('jazz');
  });

  it('distils at once on ingest', async () => {
    const h = await engine();
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'ada',
      conversation_id: 's1',
      session_date: '2023-05-08',
      turns: [{ user: 'I usually go running every morning.', assistant: 'Great habit!' }],
    });
    expect(res.status).toBe(200);
    const eps = episodes(h.services.db, 'ada');
    expect(eps).toHaveLength(1);
    expect(eps[0]!.summary).toContain('8 May 2023');
    expect(facts(h.services.db, 'ada').map((f) => f.content)).toContain(
      'User usually goes running every morning',
    );
  });
});

describe('typed facts without a Core Model (issue 11)', () => {
  it('ordinary statements become typed facts; a move supersedes the old home everywhere', async () => {
    const h = await engine();
    const ingest = (conversation: string, date: string, user: string) =>
      h.api('POST', '/memory/ingest', {
        agent_id: 'noor',
        conversation_id: conversation,
        session_date: date,
        turns: [{ user, assistant: 'Noted.' }],
      });
    expect(
      (await ingest('s1', '2023-06-10', 'I live in Berlin and I drink a lot of coffee.')).status,
    ).toBe(200);
    expect(
      (
        await ingest(
          's2',
          '2024-05-02',
          'I moved to Lisbon in March. I switched to green tea, coffee makes me jittery. ' +
            'My manager is Priya Raman. We adopted a beagle named Biscuit. Do you live in Paris? ' +
            "I might get a cat. I don't have a car.",
        )
      ).status,
    ).toBe(200);
    const db = h.services.db;
    const current = facts(db, 'noor');
    const typedOf = (relation: string) =>
      current.filter((f) => f.relation === relation).map((f) => f.object);
    expect(typedOf('lives_in')).toEqual(['Lisbon']);
    expect(typedOf('drink')).toEqual(['green tea']);
    expect(typedOf('manager')).toEqual(['Priya Raman']);
    expect(typedOf('pet')).toEqual(['Biscuit']);
    expect(typedOf('health')).toEqual(['coffee']);
    // questions, hypotheticals and negations stored nothing
    expect(current.map((f) => f.content).join(' ')).not.toMatch(/Paris|cat|car\b/);
    const lisbon = current.find((f) => f.relation === 'lives_in')!;
    expect(lisbon).toMatchObject({
      content: 'User moved to Lisbon (March 2024)',
      valid_from: Date.UTC(2024, 2, 1),
      conversation_id: 's2',
    });
    expect(lisbon.source_ids).toHaveLength(1);
    // Berlin and coffee are history: kept, but neither listed, searched nor injected.
    const history = listPinned(db, {
      agentId: 'noor',
      status: 'all',
      sort: 'created_at',
      limit: 50,
      offset: 0,
      history: true,
    }).items.filter((f) => f.superseded_at !== null);
    expect(history.map((f) => f.object).sort()).toEqual(['Berlin', 'coffee']);
    const search = await h.api('POST', '/memory/search', {
      agent_id: 'noor',
      scope: 'pinned',
      query: 'Berlin',
    });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).not.toContain('Berlin');
    expect(getIdentity(db, 'noor').overrides).toEqual(['User moved to Lisbon (March 2024)']);
  });
});

describe('recovery after a crash', () => {
  it('distils signals left pending by a SIGKILLed `cairn serve` after restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-distill-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const dbKey = randomBytes(32).toString('hex');
    const token = 'distill-crash-token';
    const upstream = await startScriptedUpstream();
    cleanups.push(() => upstream.close());
    upstream.setDefault(() => ({ kind: 'chat', content: 'Noted!' }));
    const { child, url } = await startServeChild({
      dataDir,
      dbKey,
      token,
      upstreamUrl: upstream.url,
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    // A chat turn is recorded with a pending signal whose debounce (60 s) has not fired yet.
    const client = new OpenAI({
      baseURL: url + '/v1',
      apiKey: token,
      defaultHeaders: { 'X-Osaurus-Agent-Id': 'ada', 'X-Osaurus-Conversation-Id': 'before-crash' },
    });
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'My name is Ada and I love sailing.' }],
    });
    const auth = { authorization: `Bearer ${token}` };
    await until(async () => {
      const agents = (await (await fetch(url + '/agents', { headers: auth })).json()) as {
        agents: { id: string; pending_count: number }[];
      };
      return agents.agents.some((a) => a.id === 'ada' && a.pending_count === 1);
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    const h = await startEngine({
      dataDir,
      dbKey,
      token,
      config: { coreModel: 'auto', distiller: { recoverDelayMs: 20 } },
    });
    cleanups.push(() => h.stop());
    const db = h.services.db;
    await until(() => episodes(db, 'ada').length === 1);
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User loves sailing']),
    );
    expect(listSignals(db, { statuses: ['pending', 'processing'], limit: 10 })).toHaveLength(0);
  });
});

describe('cairn serve and CAIRN_CORE_MODEL', () => {
  // The headless entry as users run it; the conversation is distilled by the flush at
  // SIGTERM (the debounce is at least 10 s), then the data is read by a fresh engine.
  async function chatThenStop(env: Record<string, string>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-core-model-env-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const dbKey = randomBytes(32).toString('hex');
    const token = 'core-model-env-token';
    const upstream = await startScriptedUpstream();
    cleanups.push(() => upstream.close());
    upstream.setDefault((r) =>
      isCoreModelCall(r) ? { kind: 'digest', digest } : { kind: 'chat', content: 'Noted!' },
    );
    const { child, url } = await startServeChild({
      dataDir,
      dbKey,
      token,
      upstreamUrl: upstream.url,
      env,
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    await new OpenAI({
      baseURL: url + '/v1',
      apiKey: token,
      defaultHeaders: { 'X-Osaurus-Agent-Id': 'ada', 'X-Osaurus-Conversation-Id': 'env' },
    }).chat.completions.create({
      model: 'local-chat',
      messages: [{ role: 'user', content: 'My name is Ada and I love sailing.' }],
    });
    const auth = { authorization: `Bearer ${token}` };
    await until(async () => {
      const agents = (await (await fetch(url + '/agents', { headers: auth })).json()) as {
        agents: { id: string; pending_count: number }[];
      };
      return agents.agents.some((a) => a.id === 'ada' && a.pending_count === 1);
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    const h = await startEngine({ dataDir, dbKey, token, upstream, config: { coreModel: 'off' } });
    cleanups.push(() => h.stop());
    return { upstream, db: h.services.db };
  }

  it('CAIRN_CORE_MODEL=off: no distillation request reaches the upstream', async () => {
    const { upstream, db } = await chatThenStop({ CAIRN_CORE_MODEL: 'off' });
    expect(upstream.chatRequests().filter(isCoreModelCall)).toHaveLength(0);
    expect(upstream.chatRequests()).toHaveLength(1);
    expect(facts(db, 'ada').map((f) => f.content)).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User loves sailing']),
    );
    expect(listProcessingLog(db, { limit: 1, kind: 'distill' })[0]).toMatchObject({
      status: 'ok',
      model: 'heuristic',
    });
  });

  it('unset (auto): the same conversation is distilled by the chat model', async () => {
    const { upstream, db } = await chatThenStop({});
    const core = upstream.chatRequests().filter(isCoreModelCall);
    expect(core.map((r) => (r.body as { model: string }).model)).toEqual(['local-chat']);
    expect(episodes(db, 'ada')[0]!.summary).toBe(digest.episode.summary);
  });
});
