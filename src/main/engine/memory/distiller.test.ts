// The distiller on a real encrypted database, the real upstream client and the scripted
// upstream server playing the Core Model.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedUpstream,
  type ScriptedUpstream,
} from '../../../../test/helpers/scripted-upstream.ts';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { systemClock } from '../clock.ts';
import { silentLogger } from '../logger.ts';
import { createSettingsService } from '../settings-service.ts';
import { listEpisodes } from '../store/episodes.ts';
import { getIdentity } from '../store/identity.ts';
import type { Db } from '../store/db.ts';
import { listPinned } from '../store/pinned.ts';
import { listProcessingLog } from '../store/processing-log.ts';
import { listSignals } from '../store/signals.ts';
import { recordTurn } from '../store/transcript.ts';
import { createUpstreamClient } from '../upstream/upstream-client.ts';
import { createDigestThread, type DigestThread } from './digest-thread.ts';
import { createDistiller, type DistillerOptions } from './distiller.ts';

let upstream: ScriptedUpstream;
let db: Db;
let cleanup: () => void;
const stops: (() => void)[] = [];

beforeEach(async () => {
  upstream = await startScriptedUpstream();
  ({ db, cleanup } = tempDatabase());
});
afterEach(async () => {
  stops.splice(0).forEach((s) => s());
  cleanup();
  await upstream.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

function setup(opts: { coreModel?: string | null; extra?: Partial<DistillerOptions> } = {}) {
  const settings = createSettingsService({ db, logger: silentLogger });
  if (opts.coreModel !== null) settings.update({ coreModel: opts.coreModel ?? 'scripted-core' });
  const client = createUpstreamClient({
    settings,
    logger: silentLogger,
    config: { upstreamUrl: upstream.url },
  });
  const distiller = createDistiller({
    db,
    settings,
    upstream: client,
    vectors: null,
    logger: silentLogger,
    clock: systemClock,
    debounceMsOverride: 40,
    retryDelayMs: 20,
    recoverDelayMs: 10,
    ...opts.extra,
  });
  stops.push(() => distiller.stop());
  return { distiller, settings };
}

function turn(agent: string, conv: string, user: string, assistant = 'Noted.') {
  const now = Date.UTC(2025, 2, 3, 10);
  return recordTurn(db, {
    agentId: agent,
    conversationId: conv,
    messages: [
      { role: 'user', content: user, createdAt: now },
      { role: 'assistant', content: assistant, createdAt: now + 1 },
    ],
    now,
  });
}

const digest = {
  episode: {
    summary: 'Ada planned a trip to Lisbon in May.',
    topics: ['travel'],
    entities: ['Lisbon'],
    decisions: ['Fly on Friday'],
    action_items: [],
    salience: 0.8,
  },
  pinned_candidates: [{ content: 'User is vegetarian', salience: 0.7, tags: ['food'] }],
  identity_facts: ["User's name is Ada"],
};

const episodes = (agent = 'a') => listEpisodes(db, { agentId: agent, limit: 50, offset: 0 }).items;
const facts = (agent = 'a') =>
  listPinned(db, { agentId: agent, status: 'all', sort: 'created_at', limit: 50, offset: 0 }).items;
const signals = () =>
  listSignals(db, { statuses: ['pending', 'processing', 'processed', 'dead_letter'], limit: 100 });
const transcriptCount = () =>
  (db.prepare('SELECT count(*) AS n FROM transcript').get() as { n: number }).n;

describe('distiller', () => {
  it('distils a conversation with the Core Model after the debounce', async () => {
    const { distiller } = setup();
    upstream.enqueue({ kind: 'digest', digest });
    turn('a', 'c1', 'Hi, I am Ada. I am vegetarian and I fly to Lisbon on Friday.');
    distiller.notifyTurn('a', 'c1');
    await sleep(15);
    turn('a', 'c1', 'Book the hotel too.');
    distiller.notifyTurn('a', 'c1'); // re-arms: still one call for the session
    await until(() => episodes().length === 1);
    await distiller.idle();
    expect(upstream.chatRequests()).toHaveLength(1);
    const body = upstream.chatRequests()[0]!.body as {
      model: string;
      response_format?: unknown;
      messages: { content: string }[];
    };
    expect(body.model).toBe('scripted-core');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[1]!.content).toContain('Book the hotel too.');
    expect(episodes()[0]!.summary).toBe(digest.episode.summary);
    expect(facts().map((f) => f.content)).toEqual(['User is vegetarian']);
    expect(getIdentity(db, 'a').overrides).toEqual(["User's name is Ada"]);
    expect(signals().every((s) => s.status === 'processed')).toBe(true);
    const log = listProcessingLog(db, { limit: 10 });
    expect(log[0]).toMatchObject({
      kind: 'distill',
      status: 'ok',
      model: 'scripted-core',
      tokens: 15,
    });
    expect(JSON.stringify(log)).not.toContain('Lisbon');
  });

  it('uses the heuristic distiller when no Core Model is configured', async () => {
    const { distiller } = setup({ coreModel: null });
    turn('a', 'c1', 'My name is Ada. I work at Acme as a data engineer. I love hiking.');
    await distiller.distilNow('a', 'c1');
    expect(upstream.chatRequests()).toHaveLength(0);
    expect(episodes()).toHaveLength(1);
    expect(facts().map((f) => f.content)).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User loves hiking']),
    );
    expect(getIdentity(db, 'a').overrides).toContain("User's name is Ada");
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({
      status: 'ok',
      model: 'heuristic',
    });
  });

  it('reads the conversation on the digest worker when it has one, and here when it fails', async () => {
    const thread = createDigestThread({ logger: silentLogger })!;
    stops.push(() => void thread.close());
    let served = 0;
    const counted: DigestThread = {
      digest: async (...args) => {
        const d = await thread.digest(...args);
        served++;
        return d;
      },
      close: () => thread.close(),
    };
    const { distiller } = setup({ coreModel: null, extra: { digestThread: counted } });
    turn('a', 'c1', 'My name is Ada. I work at Acme as a data engineer. I love hiking.');
    await distiller.distilNow('a', 'c1');
    expect(served).toBe(1);
    expect(facts().map((f) => f.content)).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User loves hiking']),
    );
    // A thread that fails: the digest is read on this thread instead, nothing is lost.
    let asked = 0;
    const broken: DigestThread = {
      digest: () => {
        asked++;
        return Promise.reject(new Error('worker gone'));
      },
      close: async () => {},
    };
    const second = setup({ coreModel: null, extra: { digestThread: broken } });
    turn('b', 'c1', 'I love jazz and I play the cello.');
    await second.distiller.distilNow('b', 'c1');
    expect(asked).toBe(1);
    expect(facts('b').map((f) => f.content)).toEqual(expect.arrayContaining(['User loves jazz']));
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({
      status: 'ok',
      model: 'heuristic',
    });
  });

  it('parses a fenced digest in prose', async () => {
    const { distiller } = setup();
    upstream.enqueue({
      kind: 'chat',
      content: 'Here you go:\n```json\n' + JSON.stringify(digest) + '\n```',
    });
    turn('a', 'c1', 'I am vegetarian.');
    await distiller.distilNow('a', 'c1');
    expect(episodes()[0]!.summary).toBe(digest.episode.summary);
  });

  it('falls back to the heuristic stage at once when the Core Model answers prose', async () => {
    const { distiller } = setup();
    upstream.setDefault(() => ({ kind: 'chat', content: 'Sorry, I cannot do that.' }));
    turn('a', 'c1', 'I love jazz and I live in Berlin.');
    const before = transcriptCount();
    await distiller.distilNow('a', 'c1');
    // one call: asking again would only get more prose
    expect(upstream.chatRequests()).toHaveLength(1);
    expect(signals()).toEqual([expect.objectContaining({ status: 'processed', attempts: 0 })]);
    expect(transcriptCount()).toBe(before);
    expect(facts().map((f) => f.content)).toEqual(
      expect.arrayContaining(['User loves jazz', 'User lives in Berlin']),
    );
    expect(episodes()).toHaveLength(1);
    const log = listProcessingLog(db, { limit: 10 });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'ok', model: 'heuristic', tokens: 15 });
    expect(log[0]!.error).toMatch(/scripted-core answered without a digest \(no JSON object/);
    expect(JSON.stringify(log)).not.toMatch(/jazz|Berlin|Sorry/);
  });

  it('falls back at once on JSON of the wrong shape too', async () => {
    const { distiller } = setup();
    upstream.enqueue({ kind: 'chat', content: '{"answer": "Jazz is a genre of music."}' });
    turn('a', 'c1', 'I love jazz.');
    await distiller.distilNow('a', 'c1');
    expect(upstream.chatRequests()).toHaveLength(1);
    expect(listProcessingLog(db, { limit: 1 })[0]!.error).toMatch(/does not match the schema/);
    expect(facts().map((f) => f.content)).toContain('User loves jazz');
  });

  it('dead-letters a Core Model that keeps failing, with heuristic memory from the first failure', async () => {
    const { distiller } = setup();
    upstream.setDefault(() => ({ kind: 'error', status: 503, message: 'loading model' }));
    turn('a', 'c1', 'I love jazz and I live in Berlin.');
    distiller.notifyTurn('a', 'c1');
    // after the first failed attempt memory is already there, the signal still pending
    await until(() => signals()[0]!.attempts === 1);
    expect(facts().map((f) => f.content)).toEqual(
      expect.arrayContaining(['User loves jazz', 'User lives in Berlin']),
    );
    expect(episodes()).toHaveLength(1);
    await until(() => signals()[0]!.status === 'dead_letter');
    await distiller.idle();
    expect(upstream.chatRequests()).toHaveLength(3);
    expect(signals()[0]).toMatchObject({ status: 'dead_letter', attempts: 3 });
    expect(signals()[0]!.last_error).toMatch(/HTTP 503/);
    const log = listProcessingLog(db, { limit: 10 });
    expect(log.map((l) => l.status)).toEqual(['dead_letter', 'error', 'error']);
    expect(log[0]!.error).toMatch(/heuristic digest was stored meanwhile/);
    // the same facts, stored once
    expect(facts().filter((f) => f.content === 'User loves jazz')).toHaveLength(1);
  });

  it('retries a failed call later (timer) and the Core Model digest replaces the episode', async () => {
    const { distiller } = setup();
    upstream.enqueue({ kind: 'error', status: 500, message: 'down' }, { kind: 'digest', digest });
    turn('a', 'c1', 'I am vegetarian.');
    distiller.notifyTurn('a', 'c1');
    await until(() => signals()[0]!.status === 'processed');
    expect(signals()[0]).toMatchObject({ status: 'processed', attempts: 1 });
    expect(episodes()).toHaveLength(1);
    expect(episodes()[0]!.summary).toBe(digest.episode.summary);
  });

  it('flushes the previous conversation of an agent at once when a new one starts', async () => {
    const { distiller } = setup({ coreModel: null, extra: { debounceMsOverride: 60_000 } });
    turn('a', 'c1', 'I love jazz.');
    distiller.notifyTurn('a', 'c1');
    turn('a', 'c2', 'I love tea.');
    distiller.notifyTurn('a', 'c2');
    await until(() => episodes().length === 1);
    expect(episodes()[0]!.conversation_id).toBe('c1');
    expect(signals().find((s) => s.conversation_id === 'c2')!.status).toBe('pending');
  });

  it('leaves a conversation to its debounce when the agent only switches back and forth', async () => {
    const { distiller } = setup({ coreModel: null, extra: { debounceMsOverride: 60_000 } });
    const pending = () => [
      ...new Set(
        signals()
          .filter((s) => s.status === 'pending')
          .map((s) => s.conversation_id),
      ),
    ];
    turn('a', 'c1', 'I love jazz.');
    distiller.notifyTurn('a', 'c1');
    turn('a', 'c2', 'I love tea.');
    distiller.notifyTurn('a', 'c2'); // new: c1 is finished
    await until(() => episodes().length === 1);
    // c1 again (not new), then c2 again: neither finishes the other.
    turn('a', 'c1', 'I also play the cello.');
    distiller.notifyTurn('a', 'c1');
    turn('a', 'c2', 'I also like green tea.');
    distiller.notifyTurn('a', 'c2');
    await sleep(150);
    expect(pending().sort()).toEqual(['c1', 'c2']);
    // A third, new conversation finishes the one before it (c2), not c1.
    turn('a', 'c3', 'I love coffee.');
    distiller.notifyTurn('a', 'c3');
    await until(() => !pending().includes('c2'));
    expect(pending().sort()).toEqual(['c1', 'c3']);
  });

  it('recovers pending and stale processing signals at start-up', async () => {
    turn('a', 'c1', 'I love jazz.');
    turn('b', 'c9', 'I love tea.');
    db.prepare(`UPDATE pending_signals SET status = 'processing' WHERE agent_id = 'b'`).run();
    const { distiller } = setup({ coreModel: null });
    distiller.recover();
    await until(() => episodes('a').length === 1 && episodes('b').length === 1);
    await distiller.idle();
    expect(signals().every((s) => s.status === 'processed')).toBe(true);
  });

  it('does nothing automatically in manual extraction mode', async () => {
    const { distiller, settings } = setup({ coreModel: null });
    settings.update({ extractionMode: 'manual' });
    turn('a', 'c1', 'I love jazz.');
    distiller.notifyTurn('a', 'c1');
    distiller.recover();
    await sleep(120);
    expect(episodes()).toHaveLength(0);
    await distiller.distilNow('a', 'c1');
    expect(episodes()).toHaveLength(1);
    // switching extraction back on distils what waited meanwhile
    turn('a', 'c2', 'I love tea.');
    distiller.notifyTurn('a', 'c2');
    await sleep(80);
    expect(episodes()).toHaveLength(1);
    settings.update({ extractionMode: 'sessionEnd' });
    await until(() => episodes().length === 2);
  });

  it('flush() processes pending conversations within the time given', async () => {
    const { distiller } = setup({ coreModel: null, extra: { debounceMsOverride: 60_000 } });
    turn('a', 'c1', 'I love jazz.');
    distiller.notifyTurn('a', 'c1');
    await distiller.flush(2000);
    expect(episodes()).toHaveLength(1);
    // after flush the distiller is stopped: new turns wait for the next start (recover)
    turn('a', 'c2', 'I love tea.');
    distiller.notifyTurn('a', 'c2');
    await sleep(50);
    expect(episodes()).toHaveLength(1);
  });

  it('flush() gives up on a hanging Core Model in time and leaves the signals pending', async () => {
    const { distiller } = setup();
    upstream.setDefault(() => ({ kind: 'hang' }));
    turn('a', 'c1', 'I love jazz.');
    distiller.notifyTurn('a', 'c1');
    await upstream.waitForChatRequests(1);
    // Without the time limit flush would wait for the hanging model forever and the test
    // would fail on vitest's limit; no wall-clock bound is needed to see that.
    await distiller.flush(300);
    await until(() => signals()[0]!.status === 'pending');
    expect(signals()[0]!.attempts).toBe(0);
  });

  it('never sends <private> spans to the Core Model nor stores them', async () => {
    const { distiller } = setup();
    upstream.enqueue({ kind: 'digest', digest });
    turn('a', 'c1', 'My bank PIN is <private>9876</private>, remember I am vegetarian.');
    await distiller.distilNow('a', 'c1');
    expect(upstream.chatRequests()[0]!.rawBody).not.toContain('9876');
    const { distiller: d2 } = setup({ coreModel: null });
    turn('a', 'c2', 'I love <private>secret-club</private> jazz.');
    await d2.distilNow('a', 'c2');
    expect(JSON.stringify([episodes(), facts()])).not.toContain('secret-club');
  });
});

// The scripted upstream listens on 127.0.0.1: a local provider, as Ollama or LM Studio are.
describe('which model distils (auto, off, explicit)', () => {
  const requestedModels = () =>
    upstream.chatRequests().map((r) => (r.body as { model: string }).model);

  it('auto: distils with the model the conversation was chatted with', async () => {
    const { distiller, settings } = setup({ coreModel: null });
    expect(settings.get().coreModelMode).toBe('auto'); // the default
    upstream.enqueue({ kind: 'digest', digest });
    turn('a', 'c1', 'Hi, I am Ada. I am vegetarian.');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    await until(() => signals()[0]!.status === 'processed');
    expect(requestedModels()).toEqual(['llama3.2:3b']);
    expect(episodes()[0]!.summary).toBe(digest.episode.summary);
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({
      status: 'ok',
      model: 'llama3.2:3b',
    });
  });

  it("auto: the newest request's model, per conversation", async () => {
    const { distiller } = setup({ coreModel: null, extra: { debounceMsOverride: 60_000 } });
    upstream.setDefault(() => ({ kind: 'digest', digest }));
    turn('a', 'c1', 'I am vegetarian.');
    distiller.notifyTurn('a', 'c1', 'qwen2.5:7b');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    turn('b', 'c2', 'I love tea.');
    distiller.notifyTurn('b', 'c2', 'mistral');
    // a turn recorded without a model (another upstream answered it) keeps the one known
    distiller.notifyTurn('b', 'c2', null);
    await distiller.distilNow('a', 'c1');
    await distiller.distilNow('b', 'c2');
    expect(requestedModels()).toEqual(['llama3.2:3b', 'mistral']);
  });

  it('auto: a conversation whose chat model is unknown (recovered, ingested) uses the heuristic stage', async () => {
    turn('a', 'c1', 'I love jazz.');
    const { distiller } = setup({ coreModel: null });
    distiller.recover();
    await until(() => episodes().length === 1);
    await distiller.idle();
    expect(upstream.chatRequests()).toHaveLength(0);
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({ model: 'heuristic' });
  });

  it('off: never calls a model, even with the chat model known', async () => {
    const { distiller, settings } = setup({ coreModel: null });
    settings.update({ coreModelMode: 'off' });
    turn('a', 'c1', 'My name is Ada. I love hiking.');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    await until(() => signals()[0]!.status === 'processed');
    expect(upstream.chatRequests()).toHaveLength(0);
    expect(facts().map((f) => f.content)).toContain("User's name is Ada");
    expect(listProcessingLog(db, { limit: 1 })[0]).toMatchObject({
      status: 'ok',
      model: 'heuristic',
    });
  });

  it('explicit: the named model wins over the chat model', async () => {
    const { distiller } = setup({ coreModel: 'scripted-core' });
    upstream.enqueue({ kind: 'digest', digest });
    turn('a', 'c1', 'I am vegetarian.');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    await until(() => signals()[0]!.status === 'processed');
    expect(requestedModels()).toEqual(['scripted-core']);
  });

  it('a change of mode applies to the next distillation', async () => {
    const { distiller, settings } = setup({ coreModel: null });
    upstream.setDefault(() => ({ kind: 'digest', digest }));
    turn('a', 'c1', 'I am vegetarian.');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    settings.update({ coreModelMode: 'off' });
    await until(() => signals()[0]!.status === 'processed');
    expect(upstream.chatRequests()).toHaveLength(0);
    settings.update({ coreModelMode: 'auto' });
    turn('a', 'c1', 'Book the hotel too.');
    distiller.notifyTurn('a', 'c1', 'llama3.2:3b');
    await until(() => signals().every((x) => x.status === 'processed'));
    expect(requestedModels()).toEqual(['llama3.2:3b']);
  });
});
