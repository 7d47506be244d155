import type { Db } from './migrate.ts';

/**
 * Runs `fn` in one transaction (a savepoint when one is already open) and returns its result;
 * a throw rolls it back. Transaction boundaries are the store's: the memory layer and the
 * routes compose repository calls through this, never through db.transaction (lint says so).
 *
 * Every caller writes, so the transaction takes the write lock when it begins (BEGIN
 * IMMEDIATE, waiting up to busy_timeout for it). A deferred one that reads first cannot
 * write once another connection (the transcript writer's worker) committed after that read:
 * SQLite answers at once, without waiting (SQLITE_BUSY_SNAPSHOT, https://www.sqlite.org/rescode.html#busy_snapshot).
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
