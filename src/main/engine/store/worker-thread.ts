// What the database's worker threads (transcript-writer-worker.ts, db-maintenance-worker.ts)
// do alike: run below the priority of the thread serving requests, open a connection of
// their own with the key their owner passed, and answer a job that failed with its message.
import { setPriority } from 'node:os';
import type { Db } from './db.ts';
import { openDatabase } from './open.ts';

/** The database a worker opens, as its owner passes it in `workerData`. */
export interface WorkerDatabase {
  path: string;
  key: Uint8Array;
}

/** A job's answer when it threw: the error's message and SQLite code (e.g. SQLITE_FULL). */
export interface JobFailure {
  id: number;
  ok: false;
  message: string;
  code: string | null;
}

/**
 * Lowers this thread's priority, so background work yields the CPU to the thread serving
 * requests when both want it. On Linux the nice value is per thread; elsewhere it would apply
 * to the whole process, so it is skipped there.
 */
export function yieldToRequestThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(5);
  } catch {
    // not permitted: keep the default priority
  }
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

export function jobFailure(id: number, err: unknown): JobFailure {
  const e = err as { message?: string; code?: string };
  return { id, ok: false, message: e.message ?? String(err), code: e.code ?? null };
}
