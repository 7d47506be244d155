// Giving memory back once a busy spell is over (issue 11: RSS ≤ 300 MB when idle). Under load
// each thread's V8 heap grows (garbage the young-generation scavenges promoted, collected
// only by a later full GC, which an idle process does not run) and each database connection
// fills its page cache (up to 16 MB). Measured (`npm run bench -- memory-throughput`, ~13k
// rows, after 50 clients for 10 s): the process stayed at ~550 MB resident while idle, the
// main heap 127 MB of which 56 MB in use. Once every thread has been quiet for a while, each
// releases what it holds: its connection's page cache (PRAGMA shrink_memory, clean pages
// only: the next read decrypts them again) and its heap's garbage (a full, compacting GC).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { trimNativeHeap } from './native-heap.ts';
import type { Db } from './store/db.ts';

/** How long a thread must have been quiet before it releases memory. */
export const RELEASE_AFTER_MS = 10_000;

/** null: this runtime would not give one (the release then only shrinks the caches). */
let collect: (() => void) | null | undefined;

/**
 * A full garbage collection of this thread's heap. `gc` is exposed only to a context made
 * while the flag is set, and the flag is cleared again at once: no other code sees a global
 * `gc`. Works the same under Node and in Electron's main process, whose V8 flags cannot be
 * given at its start the way Node's are.
 */
function fullGc(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const fn: unknown = runInNewContext('gc');
      collect = typeof fn === 'function' ? (fn as () => void) : null;
    } catch {
      collect = null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  collect?.();
}

/**
 * Releases the page cache of each connection (those that fail are skipped) and the heap's
 * garbage; on the main thread, then the C allocator's free pages too (every thread's: see
 * native-heap.ts), which is what the first two give back to.
 */
export function releaseMemory(dbs: readonly Db[]): void {
  for (const db of dbs) {
    try {
      if (db.open) db.pragma('shrink_memory');
    } catch {
      // busy or closing: its cache stays until the next quiet spell
    }
  }
  fullGc();
  if (isMainThread) trimNativeHeap();
}

export interface IdleRelease {
  /** Work was done: `release` runs once the thread has been quiet for `quietMs` after it. */
  touch(): void;
  stop(): void;
}

/**
 * Runs `release` once after each spell of work (a spell ends with its last `touch`), when
 * `quietMs` have passed since and `busy()` says nothing is in flight. One timer, kept until it
 * fires: a touch only moves the time it is compared with, so a request costs no timer call.
 */
export function releaseWhenIdle(
  release: () => void,
  options: {
    quietMs?: number;
    busy?: () => boolean;
    /** A clock that only moves forward (default performance.now(); tests pass a fake one). */
    now?: () => number;
  } = {},
): IdleRelease {
  const quietMs = options.quietMs ?? RELEASE_AFTER_MS;
  const now = options.now ?? (() => performance.now());
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(fire, ms);
    timer.unref();
  };
  function fire(): void {
    timer = undefined;
    const quiet = now() - last;
    if (quiet < quietMs) return arm(quietMs - quiet);
    if (options.busy?.()) return arm(quietMs);
    release();
  }
  return {
    touch() {
      last = now();
      if (timer === undefined) arm(quietMs);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
