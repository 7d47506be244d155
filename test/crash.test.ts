// An acknowledged write is never lost: ingest 10k turns into a real `cairn serve` child,
// SIGKILL it midway, restart on the same data folder, and find every acknowledged turn.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine } from './helpers/engine-harness.ts';
import { startServeChild } from './helpers/serve-child.ts';

const root = resolve(import.meta.dirname, '..');
const nodeBin = join(root, 'node_modules', '.bin', 'node');

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('crash safety', () => {
  it('keeps every acknowledged ingest across a SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const dbKey = randomBytes(32).toString('hex');
    const token = 'crash-token';
    const { child, url } = await startServeChild({ dataDir, dbKey, token });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    const TURNS_PER_BATCH = 100;
    const BATCHES = 100; // 10k turns
    const CONCURRENCY = 4;
    const acknowledged = new Set<number>();
    let next = 0;
    let killed = false;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));

    const sendBatch = async (i: number): Promise<void> => {
      const turns = Array.from({ length: TURNS_PER_BATCH }, (_, j) => ({
        user: `batch ${i} turn ${j}: the quick brown fox jumps over the lazy dog`,
        assistant: `noted ${i}/${j}`,
      }));
      const res = await fetch(url + '/memory/ingest', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          agent_id: 'crash',
          conversation_id: `batch-${i}`,
          turns,
          skip_extraction: true,
        }),
      });
      if (res.status === 200) {
        await res.json();
        acknowledged.add(i);
      }
    };
    const worker = async (): Promise<void> => {
      while (!killed && next < BATCHES) {
        const i = next++;
        try {
          await sendBatch(i);
        } catch {
          // connection reset by the kill: not acknowledged
        }
        if (!killed && acknowledged.size >= BATCHES / 2) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(BATCHES / 2);
    expect(next).toBeLessThan(BATCHES); // it really died midway

    // Restart on the same data folder (same key): everything acknowledged is there.
    const h = await startEngine({ dataDir, dbKey, upstream: null });
    cleanups.unshift(() => h.stop());
    const db = h.services.db;
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const counts = new Map(
      (
        db
          .prepare(
            `SELECT conversation_id AS c, count(*) AS n FROM transcript WHERE agent_id = 'crash' GROUP BY conversation_id`,
          )
          .all() as { c: string; n: number }[]
      ).map((r) => [r.c, r.n]),
    );
    for (const i of acknowledged)
      expect(counts.get(`batch-${i}`), `batch ${i}`).toBe(2 * TURNS_PER_BATCH);
    // A batch is all or nothing, acknowledged or not, and has its one signal.
    for (const n of counts.values()) expect(n).toBe(2 * TURNS_PER_BATCH);
    const signals = db
      .prepare(`SELECT count(*) AS n FROM pending_signals WHERE agent_id = 'crash'`)
      .get() as { n: number };
    expect(signals.n).toBe(counts.size);
    const fts = db
      .prepare(
        `SELECT count(*) AS n FROM transcript_stem_fts WHERE transcript_stem_fts MATCH 'quick'`,
      )
      .get() as { n: number };
    expect(fts.n).toBe(counts.size * TURNS_PER_BATCH);
  }, 60_000);
});

describe('cairn serve lifecycle', () => {
  it('exits 0 on SIGTERM after a clean shutdown, and rejects bad flags with exit 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-serve-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child, url } = await startServeChild({
      dataDir,
      dbKey: randomBytes(32).toString('hex'),
      token: 'tok',
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const health = await fetch(url + '/health');
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const bad = spawn(nodeBin, [join(root, 'src/main/cli.ts'), 'serve', '--port', 'many'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    bad.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => bad.once('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/--port/);
  }, 30_000);
});
