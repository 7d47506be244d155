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
   * would otherwise compete with the requests being answered. With `of` (an agent and a
   * conversation), a later request can wait for it (`settle`).
   */
  runWhenQuiet(name: string, task: () => unknown, of?: WorkOf): void;
  /**
   * Starts now what waits for a quiet moment and resolves when the work deferred for `key`
   * so far, other than that of conversation `except`, has settled, or after `timeoutMs`; at
   * once when there is none. A request reads the turns recorded before it ("read your
   * writes"), however soon it follows them; those of its own conversation it carries itself.
   */
  settle(key: string, timeoutMs: number, except?: string): Promise<void>;
  /**
   * Starts what waits for a quiet moment, then resolves when every task started so far has
   * settled, or after `timeoutMs`.
   */
  drain(timeoutMs: number): Promise<void>;
  readonly size: number;
}

/** Whose deferred work it is: an agent (`key`) and one of its conversations (`tag`). */
export interface WorkOf {
  key: string;
  tag: string;
}

export interface BackgroundOptions {
  /** Requests in flight (default: none, so deferred work starts at once, in slices). */
  activity?: Activity;
  quietMs?: number;
  /** Told of every failed task after it is logged (the database's health watches them). */
  onError?: (err: unknown) => void;
  /** Told each time a task has settled, failed or not (memory-release.ts counts it as work). */
  onSettled?: () => void;
}

export function createBackgroundTasks(
  logger: Logger,
  options: BackgroundOptions = {},
): BackgroundTasks {
  const pending = new Set<Promise<unknown>>();
  const track = (name: string, work: Promise<unknown>) => {
    const p: Promise<unknown> = work
      .catch((err: unknown) => {
        logger.error('background task failed', { task: name, err });
        options.onError?.(err);
      })
      .finally(() => {
        pending.delete(p);
        options.onSettled?.();
      });
    pending.add(p);
  };
  const run = (name: string, task: () => unknown) =>
    track(name, new Promise<void>((resolve) => setImmediate(resolve)).then(task));
  /** Deferred work starts inside the idle queue's slice, so the slice's time limit holds. */
  const startNow = (name: string, task: () => unknown) => {
    let work: Promise<unknown>;
    try {
      work = Promise.resolve(task());
    } catch (err) {
      work = Promise.reject(err);
    }
    track(name, work);
  };
  const idle = createIdleQueue({
    activity: options.activity ?? noActivity,
    ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
  });
  const keyed = new Map<string, Map<Promise<void>, string>>();
  return {
    run,
    runWhenQuiet(name, task, of) {
      if (of === undefined) {
        idle.defer(() => startNow(name, task));
        return;
      }
      let settled!: () => void;
      const done = new Promise<void>((resolve) => (settled = resolve));
      const waiting = keyed.get(of.key) ?? new Map<Promise<void>, string>();
      keyed.set(of.key, waiting.set(done, of.tag));
      void done.then(() => {
        waiting.delete(done);
        if (waiting.size === 0 && keyed.get(of.key) === waiting) keyed.delete(of.key);
      });
      idle.defer(() =>
        startNow(name, async () => {
          try {
            return await task();
          } finally {
            settled();
          }
        }),
      );
    },
    async settle(key, timeoutMs, except) {
      const others = [...(keyed.get(key) ?? [])]
        .filter(([, tag]) => tag !== except)
        .map(([done]) => done);
      if (others.length === 0) return;
      const limit = deadline(timeoutMs);
      idle.flush();
      await Promise.race([Promise.allSettled(others), limit.reached]);
      limit.cancel();
    },
    async drain(timeoutMs) {
      const limit = deadline(timeoutMs);
      // A task may start another (record → index): wait until none is left.
      idle.flush();
      while (pending.size > 0 && !limit.passed()) {
        await Promise.race([Promise.allSettled([...pending]), limit.reached]);
        idle.flush();
      }
      limit.cancel();
    },
    get size() {
      return pending.size + idle.size;
    },
  };
}

/** A time limit for waiting: `reached` resolves once `ms` have passed (until cancelled). */
function deadline(ms: number): {
  reached: Promise<void>;
  passed: () => boolean;
  cancel: () => void;
} {
  let timer: NodeJS.Timeout | undefined;
  let passed = false;
  const reached = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      passed = true;
      resolve();
    }, ms);
  });
  return { reached, passed: () => passed, cancel: () => clearTimeout(timer) };
}
