import type { Logger } from '../logger.ts';

/**
 * Work started after a response was sent (recording a turn, indexing vectors). Tracked so
 * that shutdown can wait for it, bounded, and so that a failure is logged, never thrown
 * into the void.
 */
export interface BackgroundTasks {
  run(name: string, task: () => unknown): void;
  /** Resolves when every task started so far has settled, or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
  readonly size: number;
}

export function createBackgroundTasks(logger: Logger): BackgroundTasks {
  const pending = new Set<Promise<unknown>>();
  return {
    run(name, task) {
      const p: Promise<unknown> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((err: unknown) => logger.error('background task failed', { task: name, err }))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          timedOut = true;
          resolve();
        }, timeoutMs);
      });
      // A task may start another (record → index): wait until none is left.
      while (pending.size > 0 && !timedOut) {
        await Promise.race([Promise.allSettled([...pending]), deadline]);
      }
      clearTimeout(timer);
    },
    get size() {
      return pending.size;
    },
  };
}
