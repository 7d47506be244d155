// Worker-thread side of db-maintenance.ts: a read-only connection of its own to the encrypted
// database, for the long reads that must not run on the thread serving HTTP requests (an
// encrypted copy for GET /memory/backup, PRAGMA quick_check). Jobs run one at a time, in
// the order they arrive.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { writeEncryptedCopy } from './backup.ts';
import { quickCheck } from './integrity.ts';
import { openDatabase } from './open.ts';

export type MaintenanceJob =
  | { id: number; op: 'copy'; destPath: string }
  | { id: number; op: 'quick-check'; maxErrors: number };
export type MaintenanceResponse =
  | { id: number; ok: true; problems?: string[] }
  | { id: number; ok: false; message: string; code: string | null };
export interface MaintenanceInit {
  path: string;
  key: Uint8Array;
}

const init = workerData as MaintenanceInit;

// As for the transcript writer: on Linux the nice value is per thread, so this background
// reader yields the CPU to the thread serving requests (elsewhere it would apply to the
// whole process: skip).
if (process.platform === 'linux') {
  try {
    setPriority(5);
  } catch {
    // not permitted: keep the default priority
  }
}
const key = Buffer.from(init.key);
// Read-only: nothing this worker does may change the database, whatever state it is in.
const db = openDatabase({ path: init.path, key, readonly: true, migrate: false });
key.fill(0);
const port = parentPort!;
port.postMessage({ ready: true });

function run(job: MaintenanceJob): MaintenanceResponse {
  try {
    if (job.op === 'copy') {
      writeEncryptedCopy(db, job.destPath);
      return { id: job.id, ok: true };
    }
    return { id: job.id, ok: true, problems: quickCheck(db, job.maxErrors) };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    return { id: job.id, ok: false, message: e.message ?? String(err), code: e.code ?? null };
  }
}

port.on('message', (msg: MaintenanceJob | { close: true }) => {
  if ('close' in msg) {
    db.close();
    port.postMessage({ closed: true });
    port.close();
    return;
  }
  port.postMessage(run(msg));
});
