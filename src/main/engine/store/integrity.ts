// Read-only checks of the database file: damage (quick_check) and whether any connection has
// committed since an earlier look (data_version).
import type { Db } from './db.ts';

/**
 * `PRAGMA quick_check(N)`: the problems found (at most `maxErrors`), [] when the file is
 * sound. It reads every page of every b-tree (O(N), unlike integrity_check it skips matching
 * indexes against their tables), so it runs off the request thread.
 * https://www.sqlite.org/pragma.html#pragma_quick_check
 */
export function quickCheck(db: Db, maxErrors: number): string[] {
  const rows = db.pragma(`quick_check(${Math.max(1, Math.floor(maxErrors))})`) as {
    quick_check: string;
  }[];
  return rows
    .flatMap((r) => r.quick_check.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'ok' && !line.startsWith('*** in database'));
}

/**
 * `PRAGMA data_version`: changes whenever *another* connection commits to the database
 * (never for this connection's own commits), so a connection that never writes sees every
 * commit. https://www.sqlite.org/pragma.html#pragma_data_version
 */
export function dataVersion(db: Db): number {
  return db.pragma('data_version', { simple: true }) as number;
}
