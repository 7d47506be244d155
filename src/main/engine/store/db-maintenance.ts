import { workerReadiness } from './worker-ready.ts';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.ts';
import { workerEntryUrl } from '../threads.ts';
import { writeEncryptedCopy } from './backup.ts';
import type {
  MaintenanceInit,
  MaintenanceJob,
  MaintenanceResponse,
} from './db-maintenance-worker.ts';
import { quickCheck } from './integrity.ts';
import type { Db } from './db.ts';

/**
 * Long reads of the whole database (an encrypted copy, an integrity check) on a worker
 * thread with its own read-only connection: a 300 MB copy takes seconds, and on the HTTP
 * thread it stalled every request, /health included, for all of them. `inline` mode (where
 * the worker file is not available, e.g. inside a bundle without it, or after the worker
 * died) runs them on the calling thread's connection.
 */
export interface DbMaintenance {
  readonly mode: 'worker' | 'inline';
  /** Writes an encrypted copy into `destPath`, an empty file (see store/backup.ts). */
  copyTo(destPath: string): Promise<void>;
  /** PRAGMA quick_check: the problems found, [] when the file is sound. */
  quickCheck(maxErrors: number): Promise<string[]>;
  /**
   * Stops the worker. A job in progress cannot be interrupted (SQLite runs it in one call):
   * after `timeoutMs` the thread is left to finish on its own (it does not keep the
   * process alive) and its callers are answered with an error.
   */
  close(timeoutMs?: number): Promise<void>;
}

export interface DbMaintenanceOptions {
  /** The calling thread's connection, for inline mode. */
  db: Db;
  /** Database file and key, for the worker's own connection (the key is not kept). */
  path: string;
  key: Buffer;
  logger: Logger;
  /** Default true; false or an unavailable worker file → inline. */
  useWorker?: boolean;
}

function createInlineMaintenance(db: Db): DbMaintenance {
  return {
    mode: 'inline',
    copyTo: async (destPath) => writeEncryptedCopy(db, destPath),
    quickCheck: async (maxErrors) => quickCheck(db, maxErrors),
    close: async () => {},
  };
}

/** An error from the worker keeps SQLite's code (SQLITE_FULL, SQLITE_CORRUPT...). */
function workerError(message: string, code: string | null): Error {
  return Object.assign(new Error(message), code === null ? {} : { code });
}

export async function createDbMaintenance(options: DbMaintenanceOptions): Promise<DbMaintenance> {
  const log = options.logger.child('maintenance');
  const inline = createInlineMaintenance(options.db);
  const workerUrl =
    options.useWorker === false ? null : workerEntryUrl('db-maintenance-worker', import.meta.url);
  if (workerUrl === null) {
    if (options.useWorker !== false) {
      log.warn('maintenance worker file not found; backups and checks run on the main thread');
    }
    return inline;
  }
  const init: MaintenanceInit = { path: options.path, key: new Uint8Array(options.key) };
  const worker = new Worker(workerUrl, { workerData: init });
  init.key.fill(0);
  worker.unref();

  let nextId = 1;
  const pending = new Map<number, { resolve: (r: string[]) => void; reject: (e: Error) => void }>();
  let failed = false;
  let closing: Promise<void> | null = null;
  let onClosed: (() => void) | null = null;
  const { ready, markReady } = workerReadiness(worker, 'maintenance worker');

  const failAll = (err: Error) => {
    failed = true;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (msg: MaintenanceResponse | { ready: true } | { closed: true }) => {
    if ('ready' in msg) return markReady();
    if ('closed' in msg) return onClosed?.();
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (pending.size === 0) worker.unref();
    if (msg.ok) p.resolve(msg.problems ?? []);
    else p.reject(workerError(msg.message, msg.code));
  });
  worker.on('error', (err) => {
    log.error('maintenance worker failed', { err });
    failAll(err);
  });
  worker.on('exit', (code) => {
    if (!closing) log.error('maintenance worker stopped; running on the main thread', { code });
    failAll(new Error(`maintenance worker exited (${code})`));
    onClosed?.();
  });

  try {
    await ready;
  } catch (err) {
    log.warn('maintenance worker unavailable; backups and checks run on the main thread', {
      err: (err as Error).message,
    });
    await worker.terminate();
    return inline;
  }

  function send(job: MaintenanceJob): Promise<string[]> {
    return new Promise((resolve, reject) => {
      pending.set(job.id, { resolve, reject });
      // A job keeps the process alive until it is answered; an idle worker does not.
      worker.ref();
      worker.postMessage(job);
    });
  }

  return {
    get mode() {
      return failed ? ('inline' as const) : ('worker' as const);
    },
    async copyTo(destPath) {
      if (closing) throw new Error('maintenance worker closed');
      if (failed) return inline.copyTo(destPath);
      await send({ id: nextId++, op: 'copy', destPath });
    },
    quickCheck(maxErrors) {
      if (closing) return Promise.reject(new Error('maintenance worker closed'));
      if (failed) return inline.quickCheck(maxErrors);
      return send({ id: nextId++, op: 'quick-check', maxErrors });
    },
    close(timeoutMs = 2000) {
      closing ??= new Promise<void>((resolve) => {
        if (failed) return resolve();
        const timer = setTimeout(() => {
          failAll(new Error('maintenance worker closed'));
          worker.unref();
          void worker.terminate();
          resolve();
        }, timeoutMs);
        timer.unref();
        onClosed = () => {
          clearTimeout(timer);
          resolve();
        };
        // Behind any job in progress: the worker answers it, then closes its connection.
        worker.postMessage({ close: true });
      });
      return closing;
    },
  };
}
