import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { silentLogger } from '../logger.ts';
import { createTranscriptWriter, type TranscriptWriter } from './transcript-writer.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  useWorker: boolean,
  checkpointIntervalMs?: number,
): Promise<{
  writer: TranscriptWriter;
  db: ReturnType<typeof tempDatabase>['db'];
  path: string;
}> {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  const writer = await createTranscriptWriter({
    db: t.db,
    path: t.path,
    key: Buffer.from(t.key),
    logger: silentLogger,
    useWorker,
    ...(checkpointIntervalMs !== undefined ? { checkpointIntervalMs } : {}),
  });
  cleanups.push(() => writer.close());
  return { writer, db: t.db, path: t.path };
}

const turn = (agentId: string, i: number, role: 'user' | 'assistant' = 'user') => ({
  agentId,
  conversationId: 'c',
  messages: [{ role, content: `message ${i}`, createdAt: i }],
});

describe.each([true, false])('transcript writer (worker: %s)', (useWorker) => {
  it('records turns visible to the main connection, in order, with their signals', async () => {
    const { writer, db } = await setup(useWorker);
    expect(writer.mode).toBe(useWorker ? 'worker' : 'inline');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => writer.record(turn('a', i))),
    );
    const ids = results.map((r) => r.transcriptIds[0]!);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const rows = db
      .prepare(`SELECT content FROM transcript WHERE agent_id = 'a' ORDER BY id`)
      .all() as {
      content: string;
    }[];
    expect(rows.map((r) => r.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => `message ${i}`),
    );
    const signals = db.prepare(`SELECT count(*) AS n FROM pending_signals`).get() as { n: number };
    expect(signals.n).toBe(50);
    const durable = await writer.record(turn('a', 99), { durable: true });
    expect(durable.transcriptIds).toHaveLength(1);
  });

  it('fails only the bad request of a batch', async () => {
    const { writer, db } = await setup(useWorker);
    const outcomes = await Promise.allSettled([
      writer.record(turn('b', 1)),
      writer.record(turn('b', 2, 'robot' as 'user')),
      writer.record(turn('b', 3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const n = db.prepare(`SELECT count(*) AS n FROM transcript WHERE agent_id = 'b'`).get() as {
      n: number;
    };
    expect(n.n).toBe(2);
  });
});

describe('transcript writer (worker mode): chat turns and the read cache', () => {
  // PRAGMA data_version changes when *another* connection committed: exactly the case where
  // SQLite drops the connection's page cache (https://www.sqlite.org/pragma.html#pragma_data_version).
  const dataVersion = (db: ReturnType<typeof tempDatabase>['db']) =>
    db.pragma('data_version', { simple: true }) as number;

  it('commits chat turns on the main connection and durable batches on the worker', async () => {
    const { writer, db } = await setup(true);
    db.prepare('SELECT count(*) FROM transcript').get();
    const before = dataVersion(db);
    await Promise.all(Array.from({ length: 5 }, (_, i) => writer.record(turn('d', i))));
    expect(dataVersion(db)).toBe(before);
    await writer.record(turn('d', 5), { durable: true });
    expect(dataVersion(db)).not.toBe(before);
    const rows = db.prepare(`SELECT content FROM transcript WHERE agent_id = 'd' ORDER BY id`);
    expect((rows.all() as { content: string }[]).map((r) => r.content)).toEqual(
      Array.from({ length: 6 }, (_, i) => `message ${i}`),
    );
  });

  it('keeps the order when a chat turn arrives while the worker holds a batch', async () => {
    const { writer, db } = await setup(true);
    const results = await Promise.all([
      writer.record(turn('e', 0)),
      writer.record(turn('e', 1), { durable: true }),
      writer.record(turn('e', 2)),
      writer.record(turn('e', 3)),
    ]);
    const ids = results.map((r) => r.transcriptIds[0]!);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const n = db.prepare(`SELECT count(*) AS n FROM pending_signals WHERE agent_id = 'e'`).get();
    expect(n).toEqual({ n: 4 });
  });

  it('checkpoints the WAL the main connection writes to (from the worker)', async () => {
    const { writer, db, path } = await setup(true, 50);
    const walPages = () => statSync(path + '-wal').size;
    const burst = (from: number) =>
      Promise.all(Array.from({ length: 200 }, (_, i) => writer.record(turn('f', from + i))));
    await burst(0);
    await new Promise((r) => setTimeout(r, 300));
    const after1 = walPages();
    // Checkpointed meanwhile: the next writes start the WAL over instead of growing it.
    for (let round = 1; round <= 3; round++) {
      await burst(round * 1000);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(walPages()).toBe(after1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('transcript writer fallback', () => {
  it('writes on the main thread once the worker is gone', async () => {
    const { writer, db } = await setup(true);
    await writer.record(turn('c', 1));
    // Simulate the worker dying (e.g. killed by the OS).
    expect(writer.thread).not.toBeNull();
    await writer.thread!.terminate();
    await new Promise((r) => setTimeout(r, 20));
    expect(writer.mode).toBe('inline');
    await writer.record(turn('c', 2));
    const n = db.prepare(`SELECT count(*) AS n FROM transcript WHERE agent_id = 'c'`).get() as {
      n: number;
    };
    expect(n.n).toBe(2);
  });
});
