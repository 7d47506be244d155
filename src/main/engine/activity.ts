/**
 * How many HTTP requests are in flight and since when none is, so that work nobody waits
 * for (committing recorded chat turns) can run when the server is quiet instead of while a
 * request is being answered, where it would hold up the answer that just arrived from the
 * provider or the next request of a client that sends them back to back.
 */
export interface Activity {
  readonly inFlight: number;
  /** Milliseconds since nothing was in flight; 0 while a request is. */
  quietForMs(): number;
  /** A request arrived. */
  begin(): void;
  /** A request finished (answered, failed, or its client left). */
  end(): void;
  /** Called (synchronously, so keep it cheap) each time the last request in flight ends. */
  onQuiet(listener: () => void): void;
}

export interface ActivityOptions {
  /**
   * Milliseconds on a clock that only moves forward. Default performance.now(): a quiet time
   * measured on the wall clock would jump with a system clock change. Tests pass a fake one.
   */
  now?: () => number;
}

export function createActivity(options: ActivityOptions = {}): Activity {
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let quietSince = now();
  const listeners: (() => void)[] = [];
  return {
    get inFlight() {
      return inFlight;
    },
    quietForMs: () => (inFlight > 0 ? 0 : now() - quietSince),
    begin() {
      inFlight++;
    },
    end() {
      if (inFlight === 0) return;
      if (--inFlight > 0) return;
      quietSince = now();
      for (const listener of listeners) listener();
    },
    onQuiet(listener) {
      listeners.push(listener);
    },
  };
}

/** For writers used without a server (tests, tools): always quiet. */
export const noActivity: Activity = {
  inFlight: 0,
  quietForMs: () => Infinity,
  begin() {},
  end() {},
  onQuiet() {},
};

/**
 * Work to do after a response that nobody waits for (parsing the answer, recording the
 * turn). It runs once the server has been quiet for `quietMs`, all of it at once: between a
 * client's requests when it chats with a model, or after a burst of traffic. Under
 * continuous traffic it runs when `maxTasks` are waiting or the oldest has waited
 * `maxDelayMs`, still all at once: one longer pause every few hundred requests reaches
 * fewer of them than a short one after each (committing the turns of the last 20 ms every
 * 20 ms delayed about one request in ten, by 1-3 ms).
 */
export interface IdleQueue {
  defer(task: () => void): void;
  /** Runs everything deferred, now (shutdown). */
  flush(): void;
  readonly size: number;
}

export interface IdleQueueOptions {
  activity: Activity;
  /** Default 25 ms. */
  quietMs?: number;
  /** Default 512. */
  maxTasks?: number;
  /** Default 5000 ms. */
  maxDelayMs?: number;
  /** A task threw (tasks that can fail should catch, as BackgroundTasks.run does). */
  onError?: (err: unknown) => void;
}

export function createIdleQueue(options: IdleQueueOptions): IdleQueue {
  const quietMs = options.quietMs ?? 25;
  const maxTasks = options.maxTasks ?? 512;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  let tasks: (() => void)[] = [];
  let quietTimer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;

  const runAll = () => {
    clearTimeout(quietTimer);
    clearTimeout(deadline);
    quietTimer = deadline = undefined;
    const batch = tasks;
    tasks = [];
    for (const task of batch) {
      try {
        task();
      } catch (err) {
        options.onError?.(err);
      }
    }
  };
  const armQuietTimer = (ms: number) => {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(check, ms);
  };
  function check(): void {
    quietTimer = undefined;
    if (tasks.length === 0) return;
    const quiet = options.activity.quietForMs();
    if (quiet >= quietMs) runAll();
    // Busy: the end of the last request in flight re-arms the timer.
    else if (quiet > 0) armQuietTimer(quietMs - quiet);
  }
  options.activity.onQuiet(() => {
    if (tasks.length > 0) armQuietTimer(quietMs);
  });

  return {
    defer(task) {
      tasks.push(task);
      if (tasks.length === maxTasks) {
        // After the current callback: the response being written goes out first.
        setImmediate(runAll);
        return;
      }
      if (tasks.length > maxTasks) return; // runAll is already scheduled
      deadline ??= setTimeout(runAll, maxDelayMs);
      if (quietTimer === undefined) armQuietTimer(quietMs);
    },
    flush: runAll,
    get size() {
      return tasks.length;
    },
  };
}
