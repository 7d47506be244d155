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
 * turn). It runs when no request is in flight: `quietMs` after the last one ended (default
 * 0: as soon as the response is out), in slices of at most `sliceMs`, each followed by a
 * turn of the event loop, so a request that arrives meanwhile waits for one slice at most
 * and stops the rest until it is answered. Work left to wait for a quiet moment piled up
 * and then ran all at once: under a client that sends requests back to back, every 5 s one
 * of them waited 130 ms (100k rows, `npm run bench -- memory-throughput`). Under continuous
 * traffic (nothing ever quiet), once `maxTasks` are waiting or the oldest has waited
 * `maxDelayMs`, it runs in slices (of `busySliceMs`) between the requests.
 */
export interface IdleQueue {
  defer(task: () => void): void;
  /** Runs everything deferred, now (shutdown, or a request that needs it done). */
  flush(): void;
  readonly size: number;
}

export interface IdleQueueOptions {
  activity: Activity;
  /** Default 0. */
  quietMs?: number;
  /** Default 512. */
  maxTasks?: number;
  /** Default 5000 ms. */
  maxDelayMs?: number;
  /** Default 2 ms (a task longer than that runs whole: a slice holds one task at least). */
  sliceMs?: number;
  /**
   * A slice while requests are in flight (overdue work under continuous traffic), default
   * 20 ms: fewer, larger batches cost less CPU (50 clients, interleaved: 340/332/318 requests/s
   * against 335/324/296 with 2 ms slices), and under such load a request waits far longer for
   * its turn anyway.
   */
  busySliceMs?: number;
  /** The clock slices are timed on (default performance.now(); tests pass a fake one). */
  now?: () => number;
  /** A task threw (tasks that can fail should catch, as BackgroundTasks.run does). */
  onError?: (err: unknown) => void;
}

export function createIdleQueue(options: IdleQueueOptions): IdleQueue {
  const quietMs = options.quietMs ?? 0;
  const maxTasks = options.maxTasks ?? 512;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const sliceMs = options.sliceMs ?? 2;
  const busySliceMs = options.busySliceMs ?? 20;
  const now = options.now ?? (() => performance.now());
  const { activity } = options;
  /** Waiting tasks, oldest first, from `head` on (a queue without shifting arrays). */
  let tasks: (() => void)[] = [];
  let head = 0;
  /** The oldest waiting task has waited maxDelayMs: the rest runs between requests. */
  let overdue = false;
  let quietTimer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let sliceQueued = false;

  const waiting = () => tasks.length - head;
  const runTask = (task: () => void) => {
    try {
      task();
    } catch (err) {
      options.onError?.(err);
    }
  };
  const emptied = () => {
    tasks = [];
    head = 0;
    overdue = false;
    clearTimeout(quietTimer);
    clearTimeout(deadline);
    quietTimer = deadline = undefined;
  };
  const runAll = () => {
    // What was waiting when the flush began; tasks these defer wait for the next slice.
    const end = tasks.length;
    while (head < end) runTask(tasks[head++]!);
    if (waiting() === 0) return emptied();
    tasks = tasks.slice(head);
    head = 0;
    schedule();
  };
  function runSlice(): void {
    sliceQueued = false;
    if (waiting() === 0) return;
    if (!mayRun()) return void waitForQuiet();
    const started = now();
    const limit = activity.inFlight > 0 ? busySliceMs : sliceMs;
    do runTask(tasks[head++]!);
    while (waiting() > 0 && now() - started < limit);
    if (waiting() === 0) return emptied();
    if (head > 1024) {
      tasks = tasks.slice(head);
      head = 0;
    }
    schedule();
  }
  /** What waits runs in a slice now, or when the server is quiet (or the work overdue). */
  function schedule(): void {
    if (waiting() === 0) return;
    if (mayRun()) queueSlice();
    else waitForQuiet();
  }
  /** Quiet long enough, or the work cannot wait any longer. */
  const mayRun = () =>
    overdue ||
    waiting() >= maxTasks ||
    (activity.inFlight === 0 && activity.quietForMs() >= quietMs);
  const queueSlice = () => {
    if (sliceQueued) return;
    sliceQueued = true;
    // After the current callback: the response being written goes out first.
    setImmediate(runSlice);
  };
  /** Busy: the end of the last request in flight comes back here (onQuiet). */
  const waitForQuiet = () => {
    if (activity.inFlight > 0) return;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(check, Math.max(0, quietMs - activity.quietForMs()));
  };
  function check(): void {
    quietTimer = undefined;
    schedule();
  }
  activity.onQuiet(schedule);

  return {
    defer(task) {
      tasks.push(task);
      deadline ??= setTimeout(() => {
        deadline = undefined;
        overdue = true;
        queueSlice();
      }, maxDelayMs);
      schedule();
    },
    flush: runAll,
    get size() {
      return waiting();
    },
  };
}
