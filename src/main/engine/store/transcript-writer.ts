import { workerReadiness } from './worker-ready.ts';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.ts';
import { workerEntryUrl } from '../threads.ts';
import type { Db } from './db.ts';
import { groupCommit } from './group-commit.ts';
import {
  recordTurn,
  recordTurns,
  type RecordTurnInput,
  type RecordTurnResult,
} from './transcript.ts';
import type { WriterInit, WriterRequest, WriterResponse } from './transcript-writer-worker.ts';

/**
 * Records turns (transcript rows + their pending signal, one transaction each) without
 * holding up the requests being served.
 *
 * Chat turns (non-durable) are written on the HTTP thread's own connection, those recorded
 * in the same turn of the event loop in one transaction (the server records them when it is
 * quiet, see IdleQueue): a turn is a sub-millisecond insert, and a commit by *another*
 * connection would reset this connection's whole page cache (in WAL mode a reader drops its cache whenever the WAL header changed since its last
 * transaction, https://www.sqlite.org/fileformat2.html#walindexformat), so every following
 * request would re-read and re-decrypt the pages it needs (measured: buildContext at 100k
 * rows p50 5 → 12 ms with a turn committed by a second connection between two requests).
 *
 * What would stall the HTTP thread stays on a worker thread with its own connection (`worker`
 * mode): durable ingest batches (10k turns, fsync at commit) and WAL checkpoints. A PASSIVE
 * checkpoint does not change the WAL header, so it leaves the HTTP thread's cache warm. While
 * the worker holds requests, chat turns queue behind them there (same order, and the HTTP
 * thread never waits on the worker's write lock). `inline` mode (used where the worker file
 * is not available, e.g. inside a bundle) writes everything on the calling thread.
 */
export interface TranscriptWriter {
  readonly mode: 'worker' | 'inline';
  /** Resolves once committed (with synchronous=FULL when `durable`). */
  record(input: RecordTurnInput, options?: { durable?: boolean }): Promise<RecordTurnResult>;
  /** Waits for queued writes, then closes the worker's connection. */
  close(): Promise<void>;
  /** The worker thread (null in inline mode); tests terminate it to simulate a crash. */
  readonly thread: Worker | null;
}

export interface TranscriptWriterOptions {
  /** The HTTP thread's connection (inline mode, and its auto-checkpoint is turned off). */
  db: Db;
  /** Database file and key, for the worker's own connection. */
  path: string;
  key: Buffer;
  logger: Logger;
  /** Default true; false or an unavailable worker file → inline. */
  useWorker?: boolean;
  checkpointIntervalMs?: number;
  /**
   * How long a chat turn that goes to the worker (while it holds ingest requests) waits for
   * others (default 20 ms): one message and one commit for many turns cost far less CPU
   * than one each.
   */
  batchDelayMs?: number;
}

interface LocalBatcher {
  record(input: RecordTurnInput): Promise<RecordTurnResult>;
  /** Commits what is waiting, now. */
  flush(): void;
}

/**
 * Chat turns recorded in the same turn of the event loop are committed together, in one
 * transaction at the next, which the connection's other small writes share (group-commit.ts:
 * the per-commit cost, FTS5 segment and encrypted WAL pages, is paid once: 0.26 ms for one
 * turn alone, 0.05 ms per turn in a batch of 512). When to record is the caller's choice (the
 * server defers it to quiet moments, see IdleQueue).
 */
function createLocalBatcher(db: Db): LocalBatcher {
  type Waiting = {
    input: RecordTurnInput;
    resolve: (r: RecordTurnResult) => void;
    reject: (e: Error) => void;
  };
  const group = groupCommit(db);
  const queue: Waiting[] = [];
  /** Inside the group's transaction: all in one savepoint, or (one failed) each alone. */
  const write = (batch: readonly Waiting[]): (RecordTurnResult | Error)[] => {
    try {
      return recordTurns(
        db,
        batch.map((w) => w.input),
      );
    } catch (err) {
      // An error that ended the whole transaction (disk full) is the group's to handle.
      if (!db.inTransaction) throw err;
      // One bad turn must not cost the others: each on its own, so it fails alone.
    }
    return batch.map((w) => {
      try {
        return recordTurn(db, w.input);
      } catch (err) {
        if (!db.inTransaction) throw err;
        return err as Error;
      }
    });
  };
  return {
    record: (input) =>
      new Promise<RecordTurnResult>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        if (queue.length > 1) return;
        // The turns waiting when the group commits; settled once the commit held.
        let batch: Waiting[] | null = null;
        const take = () => (batch ??= queue.splice(0));
        group
          .write(() => write(take()))
          .then(
            (results) =>
              take().forEach((w, i) => {
                const r = results[i]!;
                if (r instanceof Error) w.reject(r);
                else w.resolve(r);
              }),
            (err: unknown) => {
              for (const w of take()) w.reject(err as Error);
            },
          );
      }),
    flush: () => group.flush(),
  };
}

export function createInlineTranscriptWriter(db: Db): TranscriptWriter {
  const local = createLocalBatcher(db);
  return {
    mode: 'inline',
    record: async (input, options) => {
      if (!options?.durable) return local.record(input);
      // In order: what waits is committed first, then this turn on its own, with fsync.
      local.flush();
      db.pragma('synchronous = FULL');
      try {
        return recordTurn(db, input);
      } finally {
        db.pragma('synchronous = NORMAL');
      }
    },
    close: async () => local.flush(),
    thread: null,
  };
}

export async function createTranscriptWriter(
  options: TranscriptWriterOptions,
): Promise<TranscriptWriter> {
  const log = options.logger.child('writer');
  const workerUrl =
    options.useWorker === false
      ? null
      : workerEntryUrl('transcript-writer-worker', import.meta.url);
  if (workerUrl === null) {
    if (options.useWorker !== false) {
      log.warn('transcript writer worker file not found; writing on the main thread');
    }
    return createInlineTranscriptWriter(options.db);
  }
  const init: WriterInit = {
    path: options.path,
    key: new Uint8Array(options.key),
    checkpointIntervalMs: options.checkpointIntervalMs ?? 5000,
  };
  const worker = new Worker(workerUrl, { workerData: init });
  init.key.fill(0);
  worker.unref();

  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (r: RecordTurnResult) => void; reject: (e: Error) => void }
  >();
  let closed: Promise<void> | null = null;
  let failed: Error | null = null;
  let onClosed: (() => void) | null = null;

  // Non-durable requests wait here for up to batchDelayMs, then go in one message.
  let outbox: WriterRequest[] = [];
  let outboxTimer: NodeJS.Timeout | undefined;
  const batchDelayMs = options.batchDelayMs ?? 20;
  const flushOutbox = () => {
    clearTimeout(outboxTimer);
    outboxTimer = undefined;
    if (outbox.length === 0 || failed) return;
    worker.postMessage(outbox);
    outbox = [];
  };

  const failAll = (err: Error) => {
    if (!failed && !closed) options.db.pragma('wal_autocheckpoint = 1000');
    failed = err;
    clearTimeout(outboxTimer);
    // Never sent: they can still be written here. Sent but unanswered: unknown, rejected.
    const unsent = outbox;
    outbox = [];
    for (const r of unsent) {
      const p = pending.get(r.id);
      pending.delete(r.id);
      if (!p) continue;
      try {
        p.resolve(recordTurn(options.db, r.input));
      } catch (e) {
        p.reject(e as Error);
      }
    }
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const { ready, markReady } = workerReadiness(worker, 'transcript writer');
  worker.on('message', (msg: WriterResponse | { closed: true } | { ready: true }) => {
    if ('ready' in msg) {
      markReady();
      return;
    }
    if ('closed' in msg) {
      onClosed?.();
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(Object.assign(new Error(msg.message), { code: msg.code }));
  });
  worker.on('error', (err) => {
    log.error('transcript writer failed', { err });
    failAll(err);
  });
  worker.on('exit', (code) => {
    if (!closed) {
      log.error('transcript writer stopped; writing on the main thread from now on', { code });
      failAll(new Error(`transcript writer exited (${code})`));
    }
    onClosed?.();
  });

  // Fail fast at start-up (e.g. the worker cannot open the database) rather than on the
  // first turn: the worker says when its connection is open.
  try {
    await ready;
  } catch (err) {
    log.warn('transcript writer worker unavailable; writing on the main thread', {
      err: (err as Error).message,
    });
    await worker.terminate();
    return createInlineTranscriptWriter(options.db);
  }
  // The worker checkpoints; the HTTP thread's connection must not stall on it.
  options.db.pragma('wal_autocheckpoint = 0');
  const inline = createInlineTranscriptWriter(options.db);
  const local = createLocalBatcher(options.db);

  return {
    get mode() {
      return failed ? ('inline' as const) : ('worker' as const);
    },
    thread: worker,
    record(input, opts) {
      // A dead worker must not cost the turns that follow: write them here instead.
      if (failed) {
        local.flush();
        return inline.record(input, opts);
      }
      if (closed) return Promise.reject(new Error('transcript writer closed'));
      // A chat turn is written by this thread's connection (keeps its page cache warm),
      // unless the worker still holds requests: then it waits behind them, in order.
      if (opts?.durable !== true && pending.size === 0) return local.record(input);
      local.flush();
      const id = nextId++;
      const request: WriterRequest = { id, input, durable: opts?.durable === true };
      return new Promise<RecordTurnResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        if (request.durable) {
          // Keep the order: what waited in the outbox goes first.
          flushOutbox();
          worker.postMessage([request]);
        } else {
          outbox.push(request);
          if (outbox.length >= 64) flushOutbox();
          else outboxTimer ??= setTimeout(flushOutbox, batchDelayMs);
        }
      }).finally(() => {
        if (pending.size === 0) worker.unref();
      });
    },
    close() {
      local.flush();
      if (failed) {
        closed ??= worker.terminate().then(() => undefined);
        return closed;
      }
      closed ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          void worker.terminate();
          resolve();
        }, 5000);
        onClosed = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.ref();
        flushOutbox();
        worker.postMessage({ close: true });
      }).then(async () => {
        await worker.terminate();
        options.db.pragma('wal_autocheckpoint = 1000');
      });
      return closed;
    },
  };
}
