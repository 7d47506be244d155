// Encrypted backup (issue 4: Settings → export "an encrypted backup"). `VACUUM INTO` writes a
// consistent, compacted copy of the open database; with SQLite3 Multiple Ciphers the copy is
// encrypted with the same cipher and key as the source, so it never exists in plaintext and
// opens with this installation's key or its recovery key.
// https://www.sqlite.org/lang_vacuum.html#vacuuminto
// https://utelle.github.io/SQLite3MultipleCiphers/docs/configuration/config_sql_pragmas/
//
// The online backup API (`db.backup()` in better-sqlite3) is no alternative: it opens the
// destination itself, without a key (and URI key parameters are off in this build,
// SQLITE_USE_URI=0), so SQLite3 Multiple Ciphers refuses an encrypted source ("backup is not
// supported with incompatible source and target databases"); and its steps run on the
// calling thread. The copy runs on a connection of its own in a worker (db-maintenance.ts).
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.ts';

/** Temporary copies are `.backup-<uuid>.sqlite` in the data folder (same disk and permissions). */
const TEMP_FILE =
  /^\.backup-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.sqlite(-journal|-wal|-shm)?$/;

/**
 * Writes an encrypted copy of `db` into `destPath`, an empty file made by
 * createBackupTempFile. VACUUM INTO refuses a file that is not empty (it never overwrites
 * one), but creates a missing one with the default mode: a copy whose file was removed
 * before it started (a shutdown) must not write a new one.
 */
export function writeEncryptedCopy(db: Db, destPath: string): void {
  if (statSync(destPath).size !== 0) throw new Error('the backup file is not empty');
  db.prepare('VACUUM INTO ?').run(destPath);
}

/**
 * Creates an empty temporary file for a copy, readable by its owner only: created here with
 * O_EXCL and mode 0600 (umask can only remove bits), SQLite then writes into it and keeps the
 * mode. A file SQLite created itself would get 0644.
 */
export function createBackupTempFile(dataDir: string): string {
  const path = join(dataDir, `.backup-${randomUUID()}.sqlite`);
  closeSync(openSync(path, 'wx', 0o600));
  return path;
}

/** Removes a temporary copy (and a journal SQLite may have left beside it). */
export function removeBackupTempFile(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}-journal`, { force: true });
}

/** Temporary copies left by a process that stopped mid-backup; returns how many were removed. */
export function removeStaleBackupTempFiles(dataDir: string): number {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return 0;
  }
  const stale = names.filter((name) => TEMP_FILE.test(name));
  for (const name of stale) rmSync(join(dataDir, name), { force: true });
  return stale.length;
}
