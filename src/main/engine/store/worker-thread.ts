// What the database's worker threads (transcript-writer-worker.ts, db-maintenance-worker.ts)
// do alike beyond ../threads.ts: open a connection of their own with the key their owner passed.
import type { Db } from './db.ts';
import { openDatabase } from './open.ts';

/** The database a worker opens, as its owner passes it in `workerData`. */
export interface WorkerDatabase {
  path: string;
  key: Uint8Array;
}

/**
 * The worker's own connection. The owner has migrated the database already; the copy of the
 * key made here is wiped once the connection holds it.
 */
export function openWorkerConnection(
  init: WorkerDatabase,
  options: { readonly?: boolean } = {},
): Db {
  const key = Buffer.from(init.key);
  try {
    return openDatabase({ path: init.path, key, readonly: options.readonly, migrate: false });
  } finally {
    key.fill(0);
  }
}
