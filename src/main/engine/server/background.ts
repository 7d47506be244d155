import { type Activity, createIdleQueue, noActivity } from '../activity.ts';
import type { Logger } from '../logger.ts';

/**
 * Work started after a response was sent (recording a turn, indexing vectors). Tracked so
 * that shutdown can wait for it, bounded, and so that a failure is logged, never thrown
 * into the void.
 */
export interface BackgroundTasks {
  run(name: string, task: () => unknown): void;
  /**
   * Like `run`, once the server is quiet (see IdleQueue): for work after a response that
   * would otherwise compete with the requests being answered.
   */
  runWhenQuiet(name: string, task: () => unknown): void;
  /**
   * Starts what waits for a quiet moment, then resolves when every task started so far has
   * settled, or after `timeoutMs`.
   */
  drain(timeoutMs: number): Promise<void>;
  readonly size: number;
}

export interface BackgroundOptions {
  /** Requests in flight (default: none, so deferred work starts after `quietMs`). */
  activity?: Activity;
  quietMs?: number;
  /** Told of every failed task after it is logged (the database's health watches them). */
  onError?: (err: unknown) => void;
}

export function createBackgroundTasks(
  logger: Logger,
  options: BackgroundOptions = {},
): BackgroundTasks {
  const pending = new Set<Promise<unknown>>();
  const run = (name: string, task: () => unknown) => {
    const p: Promise<unknown> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => {
        logger.error('background task failed', { task: name, err });
        options.onError?.(err);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const idle = createIdleQueue({
    activity: options.activity ?? noActivity,
    ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
  });
  return {
    run,
    runWhenQuiet(name, task) {
      idle.defer(() => run(name, task));
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
      idle.flush();
      while (pending.size > 0 && !timedOut) {
        await Promise.race([Promise.allSettled([...pending]), deadline]);
        idle.flush();
      }
      clearTimeout(timer);
    },
    get size() {
      return pending.size + idle.size;
    },
  };
}
