// Worker-thread side of the transcript writer (see transcript-writer.ts): its own connection
// to the encrypted database, so large durable ingest batches (rows + FTS5 index + fsync) and
// WAL checkpoints never run on the thread that serves HTTP requests. Chat turns are written
// by the HTTP thread itself unless requests are waiting here.
import { parentPort, workerData } from 'node:worker_threads';
import {
  recordTurn,
  recordTurns,
  type RecordTurnInput,
  type RecordTurnResult,
} from './transcript.ts';
import { jobFailure, type JobFailure, yieldToRequestThread } from '../threads.ts';
import { openWorkerConnection, type WorkerDatabase } from './worker-thread.ts';
import { releaseMemory, releaseWhenIdle } from '../memory-release.ts';

export interface WriterRequest {
  id: number;
  input: RecordTurnInput;
  /** fsync the WAL at commit (an acknowledged ingest must survive power loss). */
  durable: boolean;
}
export type WriterResponse = { id: number; ok: true; result: RecordTurnResult } | JobFailure;
export interface WriterInit extends WorkerDatabase {
  checkpointIntervalMs: number;
}

const init = workerData as WriterInit;

yieldToRequestThread();
const db = openWorkerConnection(init);
// No checkpoint inside a commit: SQLite's automatic one runs when the commit returns, before
// the reply, so an ingest would wait for it. Checkpoints run once the writer is idle instead
// (or every CHECKPOINT_ROWS rows under a steady stream), and on a timer.
db.pragma('wal_autocheckpoint = 0');
const port = parentPort!;
// An ingest fills this connection's page cache and the thread's heap: given back once it is done.
const idleRelease = releaseWhenIdle(() => releaseMemory([db]));
port.postMessage({ ready: true });

const CHECKPOINT_IDLE_MS = 10;
const CHECKPOINT_ROWS = 100_000;
let rowsSinceCheckpoint = 0;
let idleCheckpoint: NodeJS.Timeout | undefined;

function checkpoint(): void {
  clearTimeout(idleCheckpoint);
  idleCheckpoint = undefined;
  rowsSinceCheckpoint = 0;
  try {
    // PASSIVE: never waits for readers or writers, and leaves the WAL header (which readers
    // compare to keep their page cache) unchanged (https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy: the next one tries again
  }
}

function afterWrites(rows: number): void {
  rowsSinceCheckpoint += rows;
  clearTimeout(idleCheckpoint);
  if (rowsSinceCheckpoint >= CHECKPOINT_ROWS) checkpoint();
  else idleCheckpoint = setTimeout(checkpoint, CHECKPOINT_IDLE_MS);
}

// Requests arrive in small batches (the main thread gathers them for a few ms) and those
// that arrived in the same turn of the event loop are committed together (group commit): the
// per-commit cost (FTS5 segment, WAL frames, encryption) is paid once. Durable requests are
// committed on their own with synchronous=FULL.
let queue: WriterRequest[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  const normal = batch.filter((r) => !r.durable);
  const replies: WriterResponse[] = [];
  if (normal.length > 0) {
    try {
      const results = recordTurns(
        db,
        normal.map((r) => r.input),
      );
      normal.forEach((r, i) => replies.push({ id: r.id, ok: true, result: results[i]! }));
    } catch {
      // One bad request must not fail the others: retry them one by one.
      for (const r of normal) replies.push(runOne(r));
    }
  }
  for (const r of batch) {
    if (!r.durable) continue;
    db.pragma('synchronous = FULL');
    try {
      replies.push(runOne(r));
    } finally {
      db.pragma('synchronous = NORMAL');
    }
  }
  for (const reply of replies) port.postMessage(reply);
  afterWrites(batch.reduce((n, r) => n + r.input.messages.length, 0));
  idleRelease.touch();
}

function runOne(r: WriterRequest): WriterResponse {
  try {
    return { id: r.id, ok: true, result: recordTurn(db, r.input) };
  } catch (err) {
    return jobFailure(r.id, err);
  }
}

port.on('message', (msg: WriterRequest[] | { close: true }) => {
  // More work arrived: the idle checkpoint waits until it is done.
  clearTimeout(idleCheckpoint);
  if ('close' in msg) {
    if (queue.length > 0) flush();
    clearTimeout(idleCheckpoint);
    clearInterval(checkpointTimer);
    idleRelease.stop();
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
    }
    port.postMessage({ closed: true });
    return;
  }
  queue.push(...msg);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});

// Neither connection auto-checkpoints: this timer folds back what the HTTP thread's
// connection wrote (chat turns, distilled memories) while the writer is idle.
const checkpointTimer = setInterval(checkpoint, init.checkpointIntervalMs);
