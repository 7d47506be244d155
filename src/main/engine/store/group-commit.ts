import type { Db } from './migrate.ts';

/**
 * Group commit: the small writes one connection makes after a request (its turn, what memory
 * did, the new rows' vectors) share one transaction instead of committing one by one. On this
 * encrypted WAL database a commit costs far more than the statements it holds: every page it
 * dirtied is encrypted and written to the WAL again, and FTS5 writes out its pending terms.
 * Measured (`BENCH_CASES=cpu npm run bench -- memory-throughput`, profiled): the commits were
 * 0.9 ms of a memory request's 5 ms, the statements inside them under 0.1 ms.
 *
 * - `write` runs at the next turn of the event loop with everything queued by then, each write
 *   in a savepoint of its own: a write that throws rolls back only itself and rejects only its
 *   promise. If the commit itself fails, or a write's error ends the whole transaction, each
 *   write is tried again on its own.
 * - `later` is for what can wait (derived data that is rebuilt if lost, e.g. vectors, which
 *   the backfill re-embeds): it joins the next commit, or commits after `maxDelayMs` at the
 *   latest.
 *
 * No transaction stays open between turns of the event loop: a flush begins, runs and commits
 * synchronously (BEGIN IMMEDIATE, so another connection's commit cannot invalidate a read
 * inside it, see transaction.ts). Shutdown flushes before the connection closes.
 */
export interface GroupCommit {
  write<T>(write: () => T): Promise<T>;
  later<T>(write: () => T, maxDelayMs: number): Promise<T>;
  /** Commits what is queued, now. */
  flush(): void;
  readonly size: number;
}

interface Queued {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

const groups = new WeakMap<Db, GroupCommit>();

/** The connection's group (one per connection, so every writer of it shares the commits). */
export function groupCommit(db: Db): GroupCommit {
  let g = groups.get(db);
  if (!g) {
    g = createGroupCommit(db);
    groups.set(db, g);
  }
  return g;
}

function createGroupCommit(db: Db): GroupCommit {
  let queue: Queued[] = [];
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** When the queued `later` writes must be committed by (Infinity: none waits). */
  let dueAt = Infinity;

  const alone = (w: Queued): Outcome => {
    try {
      return { ok: true, value: db.transaction(w.write).immediate() };
    } catch (err) {
      return { ok: false, err };
    }
  };
  const together = (batch: readonly Queued[]): Outcome[] | null => {
    const outcomes: Outcome[] = [];
    try {
      db.transaction(() => {
        for (const w of batch) {
          try {
            outcomes.push({ ok: true, value: db.transaction(w.write)() });
          } catch (err) {
            // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) roll back the whole transaction
            // (https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction):
            // what the group wrote is gone, and nothing more may run outside it.
            if (!db.inTransaction) throw err;
            outcomes.push({ ok: false, err });
          }
        }
      }).immediate();
      return outcomes;
    } catch {
      return null; // nothing was written
    }
  };
  const flush = () => {
    clearImmediate(immediate);
    clearTimeout(timer);
    immediate = timer = undefined;
    dueAt = Infinity;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const outcomes = (batch.length > 1 ? together(batch) : null) ?? batch.map(alone);
    batch.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.err);
    });
  };
  const enqueue = <T>(write: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });

  return {
    write(write) {
      const p = enqueue(write);
      immediate ??= setImmediate(flush);
      return p;
    },
    later(write, maxDelayMs) {
      const p = enqueue(write);
      const due = performance.now() + Math.max(0, maxDelayMs);
      if (immediate === undefined && due < dueAt) {
        dueAt = due;
        clearTimeout(timer);
        timer = setTimeout(flush, Math.max(0, maxDelayMs));
        timer.unref();
      }
      return p;
    },
    flush,
    get size() {
      return queue.length;
    },
  };
}
