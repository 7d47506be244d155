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
): Promise<{ writer: TranscriptWriter; db: ReturnType<typeof tempDatabase>['db'] }> {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  const writer = await createTranscriptWriter({
    db: t.db,
    path: t.path,
    key: Buffer.from(t.key),
    logger: silentLogger,
    useWorker,
  });
  cleanups.push(() => writer.close());
  return { writer, db: t.db };
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
