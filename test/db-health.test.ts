// A damaged database file and a full disk are told apart from bugs: the request that runs
// into them gets a clear answer (503 / 507, not "internal error"), /health turns `degraded`
// with a reason and what to do, and nothing in the data folder is deleted or overwritten.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HealthResponse } from '../src/shared/api.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import { tempDir } from './helpers/temp-db.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function health(h: EngineHarness): Promise<HealthResponse> {
  const res = await fetch(`${h.url}/health`);
  expect(res.status).toBe(200);
  return HealthResponse.parse(await res.json());
}

const PAGE = 4096;

/** Random bytes over every other page of [from, to) of the file; returns what was written. */
function damagePages(path: string, from: number, to: number): Map<number, Buffer> {
  const written = new Map<number, Buffer>();
  const fd = openSync(path, 'r+');
  try {
    for (let offset = from; offset < to; offset += 2 * PAGE) {
      const bytes = randomBytes(PAGE);
      writeSync(fd, bytes, 0, PAGE, offset);
      written.set(offset, bytes);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

function readPage(path: string, offset: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(PAGE);
    readSync(fd, buf, 0, PAGE, offset);
    return buf;
  } finally {
    closeSync(fd);
  }
}

describe('a database damaged in the middle', () => {
  it('answers a search with 503 and a clear message, and /health says degraded with what to do', async () => {
    const dir = tempDir('cairn-damaged-');
    cleanups.push(dir.cleanup);
    const dbKey = randomBytes(32).toString('hex');

    // Enough transcript that its rows and search index fill hundreds of pages.
    const first = await startEngine({ upstream: null, dataDir: dir.dir, dbKey });
    for (let batch = 0; batch < 4; batch++) {
      const turns = Array.from({ length: 500 }, (_, i) => ({
        user: `Note ${batch}-${i}: the garden needs water on day ${i} ${randomBytes(600).toString('hex')}`,
        assistant: `I will remember the garden note ${batch}-${i}.`,
      }));
      const res = await first.api('POST', '/memory/ingest', {
        agent_id: 'gardener',
        conversation_id: `c${batch}`,
        turns,
        skip_extraction: true,
      });
      expect(res.status).toBe(200);
    }
    await first.stop();

    // Damaged while Cairn is stopped, past the header and the schema at the start of the file.
    const path = join(dir.dir, 'memory.sqlite');
    const size = statSync(path).size;
    const from = Math.floor((size * 0.3) / PAGE) * PAGE;
    const damaged = damagePages(path, from, Math.floor((size * 0.9) / PAGE) * PAGE);

    const h = await startEngine({ upstream: null, dataDir: dir.dir, dbKey });
    cleanups.push(() => h.stop());
    const search = await h.api<{ error: { code: string; message: string; type: string } }>(
      'POST',
      '/memory/search',
      { agent_id: 'gardener', scope: 'transcript', query: 'garden water' },
    );
    expect(search.status).toBe(503);
    expect(search.body.error.code).toBe('database_damaged');
    expect(search.body.error.message).toMatch(/database file is damaged/);
    expect(search.body.error.message).toMatch(/backup/);

    const report = await health(h);
    expect(report.status).toBe('degraded');
    expect(report.problem).toBe('damaged');
    expect(report.reason).toMatch(/damaged/);
    expect(report.action).toMatch(/restore a recent encrypted backup/);
    expect(report.action).toMatch(/Export memory/);

    // The background check (started at start-up, or by the failed read) confirms it.
    await h.services.dbHealth.idle();
    const checked = await health(h);
    expect(checked.integrityCheck).toBe('failed');
    expect(checked.reason).toMatch(/integrity check .* found \d+ problems?/);

    // Nothing was moved, deleted or overwritten: the damaged pages are as they were.
    await h.stop();
    expect(existsSync(path)).toBe(true);
    expect(existsSync(join(dir.dir, 'quarantine'))).toBe(false);
    for (const [offset, bytes] of damaged) expect(readPage(path, offset).equals(bytes)).toBe(true);
  });

  it('reports a sound file as checked', async () => {
    const h = await startEngine({ upstream: null });
    cleanups.push(() => h.stop());
    await h.services.dbHealth.idle();
    const report = await health(h);
    expect(report).toMatchObject({
      status: 'ok',
      problem: null,
      reason: null,
      action: null,
      integrityCheck: 'passed',
    });
  });
});

describe('a full disk', () => {
  it('answers 507 with a clear message, /health stays degraded until a write succeeds again', async () => {
    // Turns written on the connection the test limits (not the writer thread's own).
    const h = await startEngine({ upstream: null, config: { writerWorker: false } });
    cleanups.push(() => h.stop());
    const db = h.services.db;
    // A real SQLITE_FULL: the database may not grow past the pages it has now.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);

    const ingest = {
      agent_id: 'ann',
      conversation_id: 'diary',
      turns: Array.from({ length: 50 }, (_, i) => ({
        user: `Diary page ${i}: ${randomBytes(1000).toString('hex')}`,
      })),
      skip_extraction: true,
    };
    const refused = await h.api<{ error: { code: string; message: string } }>(
      'POST',
      '/memory/ingest',
      ingest,
    );
    expect(refused.status).toBe(507);
    expect(refused.body.error).toMatchObject({
      code: 'disk_full',
      message: "The disk holding Cairn's data is full: free space, then retry.",
    });
    const listed = await h.api<{ total: number }>('GET', '/memory/transcript?agent_id=ann');
    expect(listed.body.total).toBe(0);

    const degraded = await health(h);
    expect(degraded).toMatchObject({ status: 'degraded', problem: 'disk_full' });
    expect(degraded.reason).toMatch(/disk holding Cairn's data is full/);
    expect(degraded.action).toMatch(/Free space/);
    // Reads keep working and do not end it: only a write does.
    expect((await h.api('GET', '/memory/transcript?agent_id=ann')).status).toBe(200);
    expect((await health(h)).problem).toBe('disk_full');

    // Space again (the limit lifted): the first write that succeeds ends it.
    db.pragma('max_page_count = 4294967294');
    const accepted = await h.api('POST', '/memory/ingest', ingest);
    expect(accepted.status).toBe(200);
    expect(await health(h)).toMatchObject({ status: 'ok', problem: null, reason: null });
  });
  it('shows in /health when recording a chat turn in the background ran out of space', async () => {
    const h = await startEngine({ config: { writerWorker: false } });
    cleanups.push(() => h.stop());
    const db = h.services.db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    h.upstream.enqueue({ kind: 'chat', content: 'Noted.' });
    // The answer is passed through (memory is an addition); the turn fails to be recorded.
    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        'x-osaurus-agent-id': 'ann',
      },
      body: JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: `Remember this: ${randomBytes(8000).toString('hex')}` },
        ],
      }),
    });
    expect(res.status).toBe(200);
    await res.json();
    await h.idle();
    expect(await health(h)).toMatchObject({ status: 'degraded', problem: 'disk_full' });
  });
});
