import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from './db.ts';
import { groupCommit } from './group-commit.ts';
import { openDatabase } from './open.ts';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(): { db: Db; path: string; key: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-group-'));
  dirs.push(dir);
  const path = join(dir, 'memory.db');
  const key = randomBytes(32);
  const db = openDatabase({ path, key: Buffer.from(key) });
  db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  dbs.push(db);
  return { db, path, key };
}

const values = (db: Db) =>
  (db.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);
const insert = (db: Db, v: string) => () =>
  db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes;

describe('group commit', () => {
  it('commits the writes queued in one turn of the event loop together, at the next', async () => {
    const { db, path, key } = fresh();
    const g = groupCommit(db);
    expect(groupCommit(db)).toBe(g); // one group per connection
    const other = openDatabase({ path, key: Buffer.from(key), readonly: true, migrate: false });
    dbs.push(other);
    const seen = () => (other.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

    const a = g.write(insert(db, 'a'));
    const b = g.write(insert(db, 'b'));
    expect(g.size).toBe(2);
    expect(seen()).toBe(0); // nothing written yet
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(seen()).toBe(2);
    expect(values(db)).toEqual(['a', 'b']);
    expect(g.size).toBe(0);
  });

  it('a write that throws rolls back only itself and rejects only its promise', async () => {
    const { db } = fresh();
    const g = groupCommit(db);
    const a = g.write(insert(db, 'a'));
    const bad = g.write(() => {
      insert(db, 'half')();
      throw new Error('boom');
    });
    const c = g.write(insert(db, 'c'));
    await expect(bad).rejects.toThrow('boom');
    expect(await a).toBe(1);
    expect(await c).toBe(1);
    expect(values(db)).toEqual(['a', 'c']);
  });

  it('an error that ends the whole transaction (disk full) costs only its own write, and none is written twice', async () => {
    const { db } = fresh();
    const g = groupCommit(db);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const a = g.write(insert(db, 'a'));
    const big = g.write(insert(db, 'x'.repeat(200_000)));
    const c = g.write(insert(db, 'c'));
    await expect(big).rejects.toThrow(/full/i);
    expect(await a).toBe(1);
    expect(await c).toBe(1);
    expect(values(db)).toEqual(['a', 'c']);
  });

  it('when the commit fails, each write is tried on its own', async () => {
    const { db, path, key } = fresh();
    const g = groupCommit(db);
    // Another connection holds the write lock: the group's BEGIN IMMEDIATE fails, and so does
    // each write alone; none is lost without its promise saying so.
    const other = openDatabase({ path, key: Buffer.from(key), migrate: false });
    dbs.push(other);
    other.pragma('busy_timeout = 0');
    db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const a = g.write(insert(db, 'a'));
    const b = g.write(insert(db, 'b'));
    await expect(a).rejects.toThrow(/locked|busy/i);
    await expect(b).rejects.toThrow(/locked|busy/i);
    other.exec('COMMIT');
    expect(values(db)).toEqual([]);
    // Afterwards the group works again.
    expect(await g.write(insert(db, 'c'))).toBe(1);
    expect(values(db)).toEqual(['c']);
  });

  it('what can wait joins the next commit, or commits alone after its delay', async () => {
    const { db } = fresh();
    const g = groupCommit(db);
    const late = g.later(insert(db, 'late'), 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(values(db)).toEqual([]); // still waiting
    const now = g.write(insert(db, 'now'));
    await Promise.all([late, now]);
    expect(values(db)).toEqual(['late', 'now']);

    const alone = g.later(insert(db, 'alone'), 20);
    await alone;
    expect(values(db)).toEqual(['late', 'now', 'alone']);
  });

  it('flush commits what waits at once (shutdown)', async () => {
    const { db } = fresh();
    const g = groupCommit(db);
    const late = g.later(insert(db, 'x'), 60_000);
    g.flush();
    expect(values(db)).toEqual(['x']);
    expect(await late).toBe(1);
    g.flush(); // nothing waiting: no-op
    expect(g.size).toBe(0);
  });
});
