// Issue 10, item 2 (DESIGN §6): `<private>` spans become `[private]` before anything is stored.
// A secret is written inside a private span through every write path of the real server: chat
// turns recorded by the proxy (plain, streamed with the tag split across chunks, multimodal),
// ingest (distilled by the heuristic stage and by a Core Model that echoes private spans),
// MCP `remember` (official SDK client), and the user's edits of facts, episodes and identity.
// Then the decrypted database (every table, FTS5 shadow tables included), the FTS indexes,
// the HTTP read API and an encrypted backup are searched for it: none may hold it. The request
// forwarded to the upstream is the one the user sent.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3-multiple-ciphers';
import OpenAI from 'openai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthResponse } from '../src/shared/api.ts';
import { createLogger } from '../src/main/engine/logger.ts';
import { createEmbedder, type Embedder } from '../src/main/engine/vector/embedder.ts';
import { decodeVector } from '../src/main/engine/store/vector-codec.ts';
import type { Db } from '../src/main/engine/store/db.ts';
import { TINY_MODEL_ID, TINY_MODEL_ROOT } from './fixtures/tiny-model.ts';
import { findInDatabase, tableNames } from './helpers/db-dump.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import type { RecordedRequest } from './helpers/scripted-upstream.ts';

const AGENT = 'vault';
/** Every secret shares this prefix; digits at the end keep the stemmer off them. */
const SECRET = 'zqxsecret';
const secret = (n: number) => `${SECRET}${String(n).padStart(2, '0')}`;
const hidden = (n: number) => `<private>${secret(n)}</private>`;

const EMBEDDER = {
  backend: 'transformers' as const,
  modelId: TINY_MODEL_ID,
  localModelPath: TINY_MODEL_ROOT,
  allowRemoteModels: false,
};

const isCoreModelCall = (r: RecordedRequest) =>
  (r.body as { response_format?: unknown } | undefined)?.response_format !== undefined;

/** A Core Model that repeats private spans in every field of its digest. */
const echoingDigest = {
  episode: {
    summary: `Planned the move ${hidden(20)}.`,
    topics: [`moving ${hidden(21)}`, hidden(22)],
    entities: [hidden(23)],
    decisions: [`Rent a van ${hidden(24)}`],
    action_items: [`Call ${hidden(25)}`],
    salience: 0.7,
  },
  pinned_candidates: [
    { content: `User's new address is ${hidden(26)}`, salience: 0.8, tags: [hidden(27)] },
    { content: hidden(28), salience: 0.8, tags: [] },
  ],
  identity_facts: [`User moves to ${hidden(29)}`],
};

let h: EngineHarness;
let openai: OpenAI;
let embedder: Embedder;

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  h = await startEngine({
    config: {
      // The Core Model is chosen in Settings below (no command-line override).
      coreModel: undefined,
      embedder: EMBEDDER,
      distiller: { debounceMsOverride: 50, retryDelayMs: 30, recoverDelayMs: 20 },
    },
  });
  openai = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
  embedder = createEmbedder({
    ...EMBEDDER,
    cacheDir: join(h.dataDir, 'test-models'),
    logger: createLogger({ level: 'silent' }),
  });
  await embedder.start();
  await waitFor(() => embedder.isReady(), 'the test embedder');
  for (;;) {
    const health = await h.api<HealthResponse>('GET', '/health');
    if (health.body.embedder.status === 'ready') break;
    if (health.body.embedder.status === 'error') throw new Error('engine embedder failed');
    await new Promise((r) => setTimeout(r, 25));
  }
  h.upstream.setDefault((r) =>
    isCoreModelCall(r)
      ? { kind: 'digest', digest: echoingDigest }
      : { kind: 'chat', content: `Noted, ${hidden(2)} stays between us.` },
  );
});

afterAll(async () => {
  await embedder?.close();
  await h?.stop();
});

const headers = (conversation: string) => ({
  headers: { 'X-Osaurus-Agent-Id': AGENT, 'X-Osaurus-Conversation-Id': conversation },
});

async function writeThroughEveryPath(): Promise<void> {
  // 1. A chat turn through the proxy: the user's message and the upstream's answer.
  const question = `My door code is ${hidden(1)}, and the door is blue.`;
  await openai.chat.completions.create(
    { model: 'scripted-model', messages: [{ role: 'user', content: question }] },
    headers('chat-plain'),
  );
  const forwarded = h.upstream.chatRequests().at(-1)!.body as {
    messages: { content: string }[];
  };
  // The request the user sent reaches the upstream unchanged.
  expect(forwarded.messages[0]!.content).toBe(question);

  // 2. Streamed: an unclosed span in the question, the answer's tag split across chunks.
  h.upstream.enqueue({
    kind: 'stream',
    chunks: ['Sure <priv', `ate>${secret(4)}</pri`, 'vate> done, see you'],
  });
  const stream = await openai.chat.completions.create(
    {
      model: 'scripted-model',
      stream: true,
      messages: [{ role: 'user', content: `Remember this: <private>${secret(3)} and the rest` }],
    },
    headers('chat-stream'),
  );
  for await (const chunk of stream) void chunk;

  // 3. Multimodal: the text parts are what is recorded.
  await openai.chat.completions.create(
    {
      model: 'scripted-model',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `My bank PIN: ${hidden(5)}` },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    },
    headers('chat-multimodal'),
  );

  // 4. Ingest, distilled at once by the heuristic stage (no Core Model yet).
  const ingest = await h.api('POST', '/memory/ingest', {
    agent_id: AGENT,
    conversation_id: 'ingest-heuristic',
    turns: [
      {
        user: `I am vegetarian and my diary password is ${hidden(6)}.`,
        assistant: `Understood, ${hidden(7)} is safe with me.`,
      },
    ],
  });
  expect(ingest.status).toBe(200);

  // 5. Ingest distilled by a Core Model that echoes private spans in its digest.
  expect((await h.api('PUT', '/settings', { coreModel: 'scripted-core' })).status).toBe(200);
  const core = await h.api('POST', '/memory/ingest', {
    agent_id: AGENT,
    conversation_id: 'ingest-core',
    turns: [{ user: `We move next month, the new place is ${hidden(8)}.`, assistant: 'Exciting!' }],
  });
  expect(core.status).toBe(200);
  const prompts = h.upstream.chatRequests().filter(isCoreModelCall);
  expect(prompts.length).toBeGreaterThan(0);
  for (const p of prompts) expect(p.rawBody).not.toContain(SECRET);
  expect((await h.api('PUT', '/settings', { coreModel: null })).status).toBe(200);

  // 6. MCP remember, with the official SDK client.
  const mcp = new Client({ name: 'private-spans-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${h.token}` } },
    }),
  );
  try {
    const res = await mcp.callTool({
      name: 'remember',
      arguments: { agent_id: AGENT, content: `Locker combination ${hidden(9)}` },
    });
    expect(res.isError).not.toBe(true);
  } finally {
    await mcp.close();
  }

  // 7. The user's edits: a new fact, a fact and an episode edited, the identity replaced (after
  // the distiller, whose digests would otherwise add to the identity the test then reads).
  await distillerDone();
  const fact = await h.api<{ id: number }>('POST', '/memory/pinned', {
    agent_id: AGENT,
    content: `Wifi password ${hidden(10)}`,
    tags: [hidden(11)],
  });
  expect(fact.status).toBe(201);
  const patched = await h.api('PATCH', `/memory/pinned/${fact.body.id}?agent_id=${AGENT}`, {
    content: `Wifi password changed to ${hidden(12)}`,
    tags: [`home ${hidden(13)}`],
  });
  expect(patched.status).toBe(200);
  const episodes = await h.api<{ items: { id: number }[] }>(
    'GET',
    `/memory/episodes?agent_id=${AGENT}`,
  );
  expect(episodes.body.items.length).toBeGreaterThan(0);
  const episode = await h.api(
    'PATCH',
    `/memory/episodes/${episodes.body.items.at(-1)!.id}?agent_id=${AGENT}`,
    {
      summary: `Edited summary ${hidden(14)}`,
      topics: [hidden(15)],
      entities: [`bank ${hidden(16)}`],
      decisions: [hidden(17)],
      action_items: [`pay ${hidden(18)}`],
    },
  );
  expect(episode.status).toBe(200);
  const identity = await h.api('PUT', '/memory/identity', {
    agent_id: AGENT,
    narrative: `Ada, who keeps secrets like ${hidden(19)}`,
    overrides: [`Ada's alias is ${hidden(30)}`, hidden(31)],
  });
  expect(identity.status).toBe(200);

  await distillerDone();
}

/** Every recorded turn distilled: the chat turns by the chat model (auto, loopback upstream). */
async function distillerDone(): Promise<void> {
  await h.idle();
  await waitFor(
    () =>
      (
        h.services.db
          .prepare(
            `SELECT count(*) AS n FROM pending_signals WHERE status IN ('pending', 'processing')`,
          )
          .get() as { n: number }
      ).n === 0,
    'the distiller',
  );
  await h.idle();
}

/** The FTS5 tables (virtual tables) of the database, from sqlite_master. */
function ftsTables(db: Db): string[] {
  return db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'`,
    )
    .pluck()
    .all() as string[];
}

describe('<private> spans are never stored', () => {
  beforeAll(writeThroughEveryPath, 60_000);

  it('every write path stored its row, with [private] where the span was', () => {
    const db = h.services.db;
    const transcript = db
      .prepare(
        'SELECT conversation_id AS c, role, content FROM transcript WHERE agent_id = ? ORDER BY id',
      )
      .all(AGENT) as { c: string; role: string; content: string }[];
    const of = (c: string) => transcript.filter((r) => r.c === c).map((r) => r.content);
    expect(of('chat-plain')).toEqual([
      'My door code is [private], and the door is blue.',
      'Noted, [private] stays between us.',
    ]);
    expect(of('chat-stream')).toEqual(['Remember this: [private]', 'Sure [private] done, see you']);
    expect(of('chat-multimodal')).toEqual([
      'My bank PIN: [private]',
      'Noted, [private] stays between us.',
    ]);
    expect(of('ingest-heuristic')).toEqual([
      'I am vegetarian and my diary password is [private].',
      'Understood, [private] is safe with me.',
    ]);
    const facts = db
      .prepare('SELECT content, tags FROM pinned_facts WHERE agent_id = ?')
      .all(AGENT);
    expect(facts).toEqual(
      expect.arrayContaining([
        { content: 'Locker combination [private]', tags: '[]' },
        { content: 'Wifi password changed to [private]', tags: '["home [private]"]' },
        // The tag that was only a private span is dropped from the digest, like the fact below.
        { content: "User's new address is [private]", tags: '[]' },
      ]),
    );
    // A candidate that was nothing but a private span is no fact.
    expect(facts).not.toContainEqual(expect.objectContaining({ content: '[private]' }));
    const summaries = db
      .prepare('SELECT summary FROM episodes WHERE agent_id = ?')
      .pluck()
      .all(AGENT) as string[];
    expect(summaries).toEqual(
      expect.arrayContaining(['Edited summary [private]', 'Planned the move [private].']),
    );
    expect(
      db.prepare('SELECT narrative, overrides FROM identity WHERE agent_id = ?').get(AGENT),
    ).toEqual({
      narrative: 'Ada, who keeps secrets like [private]',
      // PUT replaces the overrides; one that was only a private span is not kept.
      overrides: JSON.stringify(["Ada's alias is [private]"]),
    });
  });

  it('the decrypted database holds no secret: every table, FTS shadow tables included', () => {
    const db = h.services.db;
    expect(tableNames(db)).toEqual(
      expect.arrayContaining([
        'transcript_stem_fts_data',
        'pinned_fts_idx',
        'episodes_stem_fts_docsize',
      ]),
    );
    expect(findInDatabase(db, SECRET)).toEqual([]);
    // A control: the same search finds a word that was stored.
    expect(findInDatabase(db, 'vegetarian')).toEqual(
      expect.arrayContaining(['transcript.content']),
    );
  });

  it('no FTS index finds it', () => {
    const db = h.services.db;
    const tables = ftsTables(db);
    expect(tables.length).toBeGreaterThanOrEqual(5);
    for (const fts of tables) {
      const hits = db
        .prepare(`SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`)
        .pluck()
        .get(`${SECRET}*`);
      expect(hits, fts).toBe(0);
    }
    const control = db
      .prepare(
        `SELECT count(*) FROM transcript_stem_fts WHERE transcript_stem_fts MATCH 'vegetarian'`,
      )
      .pluck()
      .get();
    expect(control).toBeGreaterThan(0);
  });

  it('search, the transcript API and the context preview never return it', async () => {
    for (const scope of ['pinned', 'episodes', 'transcript']) {
      const res = await h.api('POST', '/memory/search', {
        agent_id: AGENT,
        scope,
        query: `${secret(1)} password code private`,
      });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
    const rows = await h.api('GET', `/memory/transcript?agent_id=${AGENT}&limit=100`);
    expect(JSON.stringify(rows.body)).toContain('[private]');
    expect(JSON.stringify(rows.body)).not.toContain(SECRET);
    const context = await h.api('POST', '/memory/context', {
      agent_id: AGENT,
      message: 'What exactly did I say about my door code?',
    });
    expect(JSON.stringify(context.body)).not.toContain(SECRET);
  });

  it('vectors are made from the stored text, never from the text before', async () => {
    await h.idle();
    const db = h.services.db;
    const rows = db
      .prepare(
        `SELECT t.content, v.embedding FROM transcript t JOIN vectors v ON v.kind = 'transcript' AND v.row_id = t.id
         WHERE t.agent_id = ? AND t.content LIKE '%[private]%'`,
      )
      .all(AGENT) as { content: string; embedding: Buffer }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const stored = decodeVector(row.embedding);
      const [expected] = await embedder.embed([row.content]);
      expect(Array.from(stored)).toEqual(Array.from(expected!).map((x) => Math.fround(x)));
    }
  });

  it('a backup holds no secret', async () => {
    const res = await fetch(`${h.url}/memory/backup`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(200);
    const file = join(h.dataDir, 'backup-under-test.sqlite');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    try {
      const copy = new Database(file, { readonly: true });
      try {
        copy.pragma(`cipher = 'sqlcipher'`);
        copy.pragma(`key = "x'${h.dbKey}'"`);
        expect(copy.prepare('SELECT count(*) FROM transcript').pluck().get()).toBeGreaterThan(0);
        expect(findInDatabase(copy, SECRET)).toEqual([]);
        expect(findInDatabase(copy, 'vegetarian')).not.toEqual([]);
      } finally {
        copy.close();
      }
    } finally {
      rmSync(file, { force: true });
    }
  });
});
