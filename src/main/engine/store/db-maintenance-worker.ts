// Worker-thread side of db-maintenance.ts: a read-only connection of its own to the encrypted
// database, for the long reads that must not run on the thread serving HTTP requests (an
// encrypted copy for GET /memory/backup, PRAGMA quick_check). Jobs run one at a time, in
// the order they arrive.
import { parentPort, workerData } from 'node:worker_threads';
import { writeEncryptedCopy } from './backup.ts';
import { quickCheck } from './integrity.ts';
import { jobFailure, type JobFailure, yieldToRequestThread } from '../threads.ts';
import { openWorkerConnection, type WorkerDatabase } from './worker-thread.ts';
import { releaseMemory, releaseWhenIdle } from '../memory-release.ts';

export type MaintenanceJob =
  | { id: number; op: 'copy'; destPath: string }
  | { id: number; op: 'quick-check'; maxErrors: number };
export type MaintenanceResponse = { id: number; ok: true; problems?: string[] } | JobFailure;
export type MaintenanceInit = WorkerDatabase;

const init = workerData as MaintenanceInit;

yieldToRequestThread();
// Read-only: nothing this worker does may change the database, whatever state it is in.
const db = openWorkerConnection(init, { readonly: true });
const port = parentPort!;
// A backup or an integrity check reads the whole file through this connection's page cache.
const idleRelease = releaseWhenIdle(() => releaseMemory([db]));
port.postMessage({ ready: true });

function run(job: MaintenanceJob): MaintenanceResponse {
  try {
    if (job.op === 'copy') {
      writeEncryptedCopy(db, job.destPath);
      return { id: job.id, ok: true };
    }
    return { id: job.id, ok: true, problems: quickCheck(db, job.maxErrors) };
  } catch (err) {
    return jobFailure(job.id, err);
  }
}

port.on('message', (msg: MaintenanceJob | { close: true }) => {
  if ('close' in msg) {
    idleRelease.stop();
    db.close();
    port.postMessage({ closed: true });
    port.close();
    return;
  }
  port.postMessage(run(msg));
  idleRelease.touch();
});
