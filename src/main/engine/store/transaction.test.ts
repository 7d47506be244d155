import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { openDatabase } from './open.ts';
import { inTransaction } from './transaction.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('inTransaction', () => {
  it('holds the write lock from its start: another connection committing after its first read cannot make its write fail', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    // A second connection, as the transcript writer's worker thread has.
    const other = openDatabase({ path: t.path, key: Buffer.from(t.key), migrate: false });
    cleanups.push(() => other.close());
    other.pragma('busy_timeout = 0');
    const put = (db: typeof t.db, key: string) =>
      db.prepare(`INSERT INTO meta (key, value) VALUES (?, 'x')`).run(key);
    let otherError: string | null = null;
    inTransaction(t.db, () => {
      t.db.prepare('SELECT count(*) FROM meta').get();
      try {
        put(other, 'other');
      } catch (err) {
        otherError = (err as { code?: string }).code ?? 'error';
      }
      // Deferred, this write would fail with SQLITE_BUSY (its snapshot is older than the
      // other connection's commit), and the distiller lost a digest that way.
      put(t.db, 'mine');
    });
    expect(otherError).toBe('SQLITE_BUSY');
    const keys = t.db.prepare(`SELECT key FROM meta WHERE key IN ('mine', 'other')`).all();
    expect(keys).toEqual([{ key: 'mine' }]);
  });

  it('nests as a savepoint: an inner throw rolls back only the inner part', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    inTransaction(t.db, () => {
      t.db.prepare(`INSERT INTO meta (key, value) VALUES ('outer', 'x')`).run();
      expect(() =>
        inTransaction(t.db, () => {
          t.db.prepare(`INSERT INTO meta (key, value) VALUES ('inner', 'x')`).run();
          throw new Error('inner fails');
        }),
      ).toThrow('inner fails');
    });
    const keys = t.db.prepare(`SELECT key FROM meta WHERE key IN ('outer', 'inner')`).all();
    expect(keys).toEqual([{ key: 'outer' }]);
  });
});
