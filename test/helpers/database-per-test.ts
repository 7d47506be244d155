// The set-up most store and memory unit tests share: a fresh real encrypted database per test,
// closed and removed after it.
import { afterEach } from 'vitest';
import type { Db } from '../../src/main/engine/store/db.ts';
import { migrate } from '../../src/main/engine/store/migrate.ts';
import { tempDatabase } from './temp-db.ts';

/** Registers the clean-up of every database `open` makes during a test, after that test. */
function closedAfterEachTest<A extends unknown[]>(
  open: (...args: A) => { db: Db; cleanup: () => void },
): (...args: A) => Db {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  return (...args) => {
    const t = open(...args);
    cleanups.push(t.cleanup);
    return t.db;
  };
}

/**
 * Call once at the top of a test file: `const db = databasePerTest();`. Each `db()` opens a
 * fresh migrated database, closed and removed after the test that opened it.
 */
export function databasePerTest(): () => Db {
  return closedAfterEachTest(() => tempDatabase());
}

/**
 * For migration tests, once at the top of the file: `const dbAt = databaseAtVersionPerTest();`.
 * Each `dbAt(n)` opens a fresh database migrated up to schema version n (0: no table yet),
 * closed and removed after the test that opened it.
 */
export function databaseAtVersionPerTest(): (version: number) => Db {
  return closedAfterEachTest((version: number) => {
    const t = tempDatabase({ migrate: false });
    if (version > 0) migrate(t.db, version);
    return t;
  });
}
