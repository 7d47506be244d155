// The health of the database file as /health and the Overview page report it: damaged
// (found by a failing request or by PRAGMA quick_check), disk full (until a write succeeds
// again), or moved to quarantine at start-up. Cairn never repairs, deletes or overwrites
// anything here: it says what is wrong and what the user can do.
import type { DatabaseProblem, IntegrityCheckState } from '../../shared/api.ts';
import type { Logger } from './logger.ts';

export type StorageFailure = 'damaged' | 'disk_full';

/** Errno codes of a full disk or an exhausted quota, as Node's fs reports them. */
const DISK_FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
/** SQLite's text for SQLITE_CORRUPT, for an error that lost its code on the way. */
const MALFORMED = /database disk image is malformed/i;
/** How deep a chain of `cause`s is followed. */
const MAX_CAUSE_DEPTH = 8;

/**
 * What a storage error means for the user, found anywhere in its `cause` chain: SQLite
 * answers SQLITE_FULL for a full disk (it maps ENOSPC to it, and `max_page_count` reached is
 * the same code), and SQLITE_CORRUPT* / SQLITE_NOTADB for a page it cannot decode
 * (https://www.sqlite.org/rescode.html). With SQLCipher a damaged page fails its HMAC check,
 * which SQLite3 Multiple Ciphers reports as SQLITE_CORRUPT.
 */
export function classifyStorageError(err: unknown): StorageFailure | null {
  let e: unknown = err;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < MAX_CAUSE_DEPTH; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code === 'SQLITE_FULL' || DISK_FULL_ERRNO.has(code)) return 'disk_full';
      if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
    }
    if (e instanceof Error && MALFORMED.test(e.message)) return 'damaged';
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export interface DbHealthReport {
  /** The most serious problem (damaged, then disk full, then quarantined), else null. */
  problem: DatabaseProblem | null;
  reason: string | null;
  action: string | null;
  integrityCheck: IntegrityCheckState;
}

export interface DbHealth {
  report(): DbHealthReport;
  /**
   * A request failed with `err`: a storage failure changes the report (and damage starts an
   * integrity check). Returns what it was, null for any other error.
   */
  noteError(err: unknown): StorageFailure | null;
  /**
   * Starts PRAGMA quick_check in the background unless one is running, or one already ran
   * while damage was known (damage does not heal while Cairn runs). Never blocks the caller.
   */
  startCheck(): void;
  /** Resolves once no check is running (tests and benches wait on it). */
  idle(): Promise<void>;
}

export interface DbHealthOptions {
  logger: Logger;
  /**
   * PRAGMA quick_check on a connection off the request thread (store/db-maintenance.ts);
   * null when only the request thread could run it: then no check runs ('unavailable').
   */
  quickCheck: ((maxErrors: number) => Promise<string[]>) | null;
  /**
   * A number that changes whenever any connection commits (store/integrity.ts dataVersion()
   * on a connection that never writes itself): "a write succeeded since".
   */
  commitVersion: () => number;
  /** Where an unreadable database was moved at start-up, else null. */
  quarantined: string | null;
}

/** quick_check stops after this many problems: enough to tell "a page" from "everything". */
const MAX_REPORTED_PROBLEMS = 100;

const DAMAGED_ACTION =
  'Quit Cairn and restore a recent encrypted backup: put it in the data folder as memory.sqlite. If you have none, first save what is still readable with Settings → Export memory…. Cairn changes nothing in the damaged file.';
const DISK_FULL_REASON = "The disk holding Cairn's data is full: a write to the database failed.";
const DISK_FULL_ACTION =
  'Free space on that disk, then retry. The status returns to ok once a write succeeds again.';
const QUARANTINED_ACTION =
  'Nothing was deleted: to get the old database back, quit Cairn and restore the quarantined file with its recovery key.';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function createDbHealth(options: DbHealthOptions): DbHealth {
  const log = options.logger.child('db-health');
  /** Set once damage was seen; the integrity check's count when it confirmed it. */
  let damage: { foundBy: 'request' | 'check'; problems: number } | null = null;
  /** The commit version when a write last failed for lack of space. */
  let diskFull: { since: number | null } | null = null;
  let integrityCheck: IntegrityCheckState = options.quickCheck ? 'pending' : 'unavailable';
  let running: Promise<void> | null = null;
  /** A check finished while damage was known: another would only repeat it. */
  let checkedWithDamage = false;

  function commitVersion(): number | null {
    try {
      return options.commitVersion();
    } catch {
      return null;
    }
  }

  /** Disk full ends with the first commit after the failure, by any connection. */
  function refreshDiskFull(): void {
    if (!diskFull) return;
    const now = commitVersion();
    if (now === null) return;
    if (diskFull.since === null) diskFull.since = now;
    else if (now !== diskFull.since) {
      diskFull = null;
      log.info('writes succeed again after the disk was full');
    }
  }

  function damagedReason(): string {
    if (damage?.foundBy === 'check') {
      return `Cairn's database file is damaged: the integrity check (PRAGMA quick_check) found ${plural(damage.problems, 'problem', 'problems')}${damage.problems >= MAX_REPORTED_PROBLEMS ? ' or more' : ''}.`;
    }
    return 'Part of Cairn\'s database file is damaged: a read failed with "database disk image is malformed".';
  }

  function runCheck(): Promise<void> {
    const check = options.quickCheck!;
    integrityCheck = 'running';
    log.info('integrity check started');
    return check(MAX_REPORTED_PROBLEMS).then(
      (problems) => {
        if (problems.length === 0) {
          integrityCheck = 'passed';
          log.info('integrity check passed');
          return;
        }
        integrityCheck = 'failed';
        damage = { foundBy: 'check', problems: problems.length };
        // Problems name b-trees and pages, never row content.
        log.error('integrity check found the database damaged', {
          problems: problems.length,
          first: problems[0]!.slice(0, 200),
        });
      },
      (err: unknown) => {
        if (classifyStorageError(err) === 'damaged') {
          integrityCheck = 'failed';
          damage = { foundBy: 'check', problems: 1 };
          log.error('integrity check could not read the database', {
            code: (err as { code?: string }).code,
          });
          return;
        }
        integrityCheck = 'unavailable';
        log.warn('integrity check could not run', { err: (err as Error).message });
      },
    );
  }

  const health: DbHealth = {
    report() {
      refreshDiskFull();
      if (damage) {
        return {
          problem: 'damaged',
          reason: damagedReason(),
          action: DAMAGED_ACTION,
          integrityCheck,
        };
      }
      if (diskFull) {
        return {
          problem: 'disk_full',
          reason: DISK_FULL_REASON,
          action: DISK_FULL_ACTION,
          integrityCheck,
        };
      }
      if (options.quarantined !== null) {
        return {
          problem: 'quarantined',
          reason: `The database could not be opened at start-up: it was moved, untouched, to ${options.quarantined} and Cairn started with an empty one.`,
          action: QUARANTINED_ACTION,
          integrityCheck,
        };
      }
      return { problem: null, reason: null, action: null, integrityCheck };
    },
    noteError(err) {
      const failure = classifyStorageError(err);
      if (failure === 'disk_full') {
        // A failure after a success starts over: only a later commit ends it.
        if (!diskFull) log.warn('a write failed: the disk is full');
        diskFull = { since: commitVersion() };
      } else if (failure === 'damaged') {
        if (!damage) {
          damage = { foundBy: 'request', problems: 0 };
          log.error('a request found the database damaged', {
            code: (err as { code?: string }).code ?? null,
          });
        }
        health.startCheck();
      }
      return failure;
    },
    startCheck() {
      if (!options.quickCheck || running) return;
      if (damage && checkedWithDamage) return;
      running = runCheck().finally(() => {
        running = null;
        if (damage) checkedWithDamage = true;
      });
    },
    idle: async () => {
      while (running) await running;
    },
  };
  return health;
}
