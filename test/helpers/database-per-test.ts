// The set-up most store and memory unit tests share: a fresh real encrypted database per test,
// closed and removed after it.
import { afterEach } from 'vitest';
import type { Db } from '../../src/main/engine/store/db.ts';
import { tempDatabase } from './temp-db.ts';

/**
 * Call once at the top of a test file: `const db = databasePerTest();`. Each `db()` opens a
 * fresh migrated database, closed and removed after the test that opened it.
 */
export function databasePerTest(): () => Db {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  return () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    return t.db;
  };
}
