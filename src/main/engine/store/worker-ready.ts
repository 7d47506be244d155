import type { Worker } from 'node:worker_threads';

/**
 * A worker's start-up handshake: `ready` resolves when the worker says its connection is open
 * (the owner calls `markReady` on its `{ ready: true }` message) and rejects if the worker
 * fails or exits first, so a database the worker cannot open is noticed at start, not on the
 * first job. Created right after the worker, before its first message can arrive.
 */
export function workerReadiness(
  worker: Worker,
  label: string,
): { ready: Promise<void>; markReady: () => void } {
  let markReady = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const onExit = (code: number) => reject(new Error(`${label} exited (${code})`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    markReady = () => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve();
    };
  });
  return { ready, markReady };
}
