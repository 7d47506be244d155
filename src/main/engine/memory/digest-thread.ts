// The heuristic distiller on a worker thread (DESIGN §6). Reading a conversation (wink-nlp
// tagging, the extraction rules, the summary) takes 20–200 ms of CPU; on the thread serving
// requests, even in slices between them, the request that arrives during a slice waits for it
// (BENCH_CASES=100k memory-throughput: 30–50 ms for the request that starts a new
// conversation). On its own thread, below the request thread's priority, it holds up nothing.
//
// The worker starts on the first digest and stops after `idleMs` without one: while it lives it
// holds its own wink-nlp model and word vectors (tens of MB), which an idle app should not
// carry. A worker that fails or exits rejects its pending digests (the distiller then reads
// the conversation on its own thread, as before); after `maxFailures` such failures the thread
// is given up for the life of the process.
import { Worker } from 'node:worker_threads';
import type { Digest } from '../../../shared/digest.ts';
import type { Logger } from '../logger.ts';
import { workerEntryUrl } from '../threads.ts';
import type { DigestJob, DigestResponse } from './digest-worker.ts';
import type { HeuristicMessage } from './heuristic-distiller.ts';

/** The worker stops after this long without work, by default. */
export const DIGEST_WORKER_IDLE_MS = 30_000;

export interface DigestThreadOptions {
  logger: Logger;
  /** The worker stops after this long without work (default DIGEST_WORKER_IDLE_MS). */
  idleMs?: number;
  /** Worker failures after which the thread is given up (default 3). */
  maxFailures?: number;
  /** Called once an idle worker has stopped (its memory is freed: the owner can give it back). */
  onRetired?: () => void;
}

export interface DigestThread {
  /** The conversation's heuristic digest, read on the worker. Rejects if the worker fails. */
  digest(
    messages: HeuristicMessage[],
    options: { conversationAt: number; wordVectorsPath: string | null },
  ): Promise<Digest>;
  /** Stops the worker; digests still pending reject. */
  close(): Promise<void>;
}

interface Pending {
  resolve: (digest: Digest) => void;
  reject: (err: Error) => void;
}

/** null when the worker's entry file is not there (a bundle built without it). */
export function createDigestThread(options: DigestThreadOptions): DigestThread | null {
  const url = workerEntryUrl('digest-worker', import.meta.url);
  if (url === null) return null;
  const log = options.logger.child('digest-thread');
  const idleMs = options.idleMs ?? DIGEST_WORKER_IDLE_MS;
  const maxFailures = options.maxFailures ?? 3;

  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const rejectAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  /** The worker stops; its exit is expected, not a failure. */
  const retire = (w: Worker) => {
    if (worker === w) worker = null;
    clearTimeout(idleTimer);
    w.removeAllListeners('exit');
    w.removeAllListeners('error');
    void w.terminate();
  };

  const start = (): Worker => {
    const w = new Worker(url);
    const failed = (err: Error) => {
      if (worker !== w) return;
      worker = null;
      failures++;
      log.warn('digest worker failed', {
        error: err.message,
        failures,
        givenUp: failures >= maxFailures,
      });
      rejectAll(err);
    };
    w.on('message', (msg: DigestResponse | { ready: true }) => {
      if ('ready' in msg) return;
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.digest);
      else p.reject(Object.assign(new Error(msg.message), { code: msg.code }));
      if (pending.size === 0) {
        // Nothing waits on it: it must not keep the process alive, and it stops when idle.
        w.unref();
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => {
          retire(w);
          options.onRetired?.();
        }, idleMs);
        idleTimer.unref();
      }
    });
    w.on('error', failed);
    w.on('exit', (code) => failed(new Error(`digest worker exited (${code})`)));
    return w;
  };

  return {
    digest(messages, opts) {
      if (closed) return Promise.reject(new Error('the digest thread is closed'));
      if (failures >= maxFailures) {
        return Promise.reject(new Error('the digest worker was given up after failures'));
      }
      clearTimeout(idleTimer);
      worker ??= start();
      // Work is waiting on it: keep the process alive until it answers.
      worker.ref();
      const id = nextId++;
      const job: DigestJob = { id, messages, ...opts };
      const answer = new Promise<Digest>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage(job);
      return answer;
    },

    async close() {
      closed = true;
      const w = worker;
      if (w) retire(w);
      rejectAll(new Error('the digest thread is closed'));
    },
  };
}
