import type { Db } from './migrate.ts';

/**
 * Runs `fn` in one transaction (a savepoint when one is already open) and returns its result;
 * a throw rolls it back. Transaction boundaries are the store's: the memory layer and the
 * routes compose repository calls through this, never through db.transaction (lint says so).
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn)();
}
