// Opening memory.sqlite in the data folder safely (DESIGN §4).
//
// The invariant: a database that cannot be opened is never deleted or overwritten.
//
// What a file is decides what happens to it (inspectDatabaseFile):
//   missing / empty     → a new encrypted database is created.
//   plaintext           → starts with "SQLite format 3\0": an unencrypted SQLite database (an
//                         import or older install). It is encrypted into a temp file, the copy
//                         is verified, then atomically renamed into place (migratePlaintext).
//                         If the plaintext file cannot be read either, it is corrupt and is
//                         quarantined: no key could ever help it.
//   not-a-database      → clearly not SQLCipher, so no key could open it either: quarantined
//                         (moved to quarantine/, never deleted) and a fresh database created.
//                         "Clearly" means one of: a size that is not a multiple of 512 (every
//                         SQLite page size is a power of two from 512 to 65536 and files grow
//                         by whole pages), or a first page that is not ciphertext (SQLCipher
//                         pages are salt + AES output + IV + HMAC: uniformly random bytes, so a
//                         4 KiB page shows nearly all 256 byte values; text, zeros or another
//                         file format show far fewer).
//   encrypted           → anything else looks like SQLCipher. If the key does not open it, that
//                         is indistinguishable from "damaged page 1" (SQLCipher's HMAC fails the
//                         same way), so it is ALWAYS reported as a wrong key and left
//                         byte-identical: quarantining a database that only needs the right
//                         key would hide the user's memory. Only when the key is proven right
//                         (page 1 decrypts) but the rest is corrupt is the file quarantined.
import Database from 'better-sqlite3-multiple-ciphers';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  constants as fsConstants,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError, isCairnError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Db } from './db.ts';
import { openDatabase } from './open.ts';

export const DATABASE_FILE_NAME = 'memory.sqlite';
export const QUARANTINE_DIR_NAME = 'quarantine';
export const PLAINTEXT_BACKUP_SUFFIX = '.plaintext-backup';

/** Errors meaning "this plaintext file is damaged" (as opposed to: disk full, in use). */
const damagedErrors = new WeakSet<Error>();
function damaged(message: string, cause?: unknown): CairnError {
  const err = new CairnError(ErrorCode.DatabaseUnreadable, message, { status: 500, cause });
  damagedErrors.add(err);
  return err;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** Files SQLite keeps beside a database; they travel with it (a hot -journal or a -wal holds data). */
const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;
/** The ones that carry data (the -shm is an index SQLite rebuilds). */
const DATA_SIDE_FILES = ['-wal', '-journal'] as const;

export type DatabaseFileKind = 'missing' | 'empty' | 'plaintext' | 'encrypted' | 'not-a-database';

/** Whether a database (possibly only its WAL) exists in the data folder. */
export function databaseFileExists(dataDir: string): boolean {
  const path = join(dataDir, DATABASE_FILE_NAME);
  return existsSync(path) || fileSize(`${path}-wal`) > 0;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

function readHead(path: string, length: number): Buffer {
  const fd = openSync(path, fsConstants.O_RDONLY);
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Fewer distinct byte values than this in the first 4 KiB means "not ciphertext". */
function looksLikeCiphertext(head: Buffer): boolean {
  const seen = new Set<number>();
  for (const b of head) seen.add(b);
  // Random bytes: 512 of them show ~221 distinct values, 4096 show ~256. Half of that
  // expectation leaves an enormous margin for real ciphertext while text (< 100 values),
  // zero-filled or structured files fall far below.
  const expected = 256 * (1 - Math.exp(-head.length / 256));
  return seen.size >= expected / 2;
}

/** Classifies memory.sqlite by its bytes alone (see the rules at the top of this file). */
export function inspectDatabaseFile(path: string): DatabaseFileKind {
  const size = fileSize(path);
  if (size < 0) return 'missing';
  if (size === 0) return 'empty';
  const head = readHead(path, Math.min(size, 4096));
  if (head.subarray(0, 16).equals(SQLITE_HEADER)) return 'plaintext';
  if (size % 512 !== 0) return 'not-a-database';
  if (!looksLikeCiphertext(head)) return 'not-a-database';
  return 'encrypted';
}

function applyKey(db: Db, key: Buffer): void {
  db.pragma(`cipher = 'sqlcipher'`);
  db.pragma(`key = "x'${key.toString('hex')}'"`);
  // Temporary files are not encrypted (see open.ts): keep them in memory.
  db.pragma('temp_store = MEMORY');
}

/**
 * Whether `key` opens the encrypted database at `path`: true / false, or null when that
 * cannot be told (no database, plaintext, not a database, or an unexpected error).
 *
 * The check never touches the database's own files. Even a failed open of the real file
 * rewrites its -shm (SQLite rebuilds the WAL index before it can tell the key is wrong), so
 * the first 64 KiB of the main file (page 1 for every page size) are copied into a sparse
 * file in a private temp folder and the key is tried there: SQLCipher verifies page 1's HMAC when reading the
 * header, answering SQLITE_NOTADB for a wrong key. Page 1 of the main file is encrypted with
 * the same key as everything in the WAL, so the answer holds for the whole database.
 */
export function keyOpensDatabase(path: string, key: Buffer): boolean | null {
  if (inspectDatabaseFile(path) !== 'encrypted') return null;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-keycheck-'));
  try {
    const probe = join(dir, 'page1.sqlite');
    writeFileSync(probe, readHead(path, 65536), { mode: 0o600 });
    // Sparse to the real size, so SQLite sees the page count the header claims.
    truncateSync(probe, fileSize(path));
    const db = new Database(probe, { fileMustExist: true });
    try {
      applyKey(db, key);
      db.pragma('user_version', { simple: true });
      return true;
    } catch (err) {
      return (err as { code?: string }).code === 'SQLITE_NOTADB' ? false : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Quarantine

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * Moves a file without ever replacing one: link() fails if the target exists, then the
 * original is unlinked. Falls back to rename where hard links are not supported, after
 * checking the target is free.
 */
function moveNoClobber(from: string, to: string): void {
  try {
    linkSync(from, to);
    unlinkSync(from);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw err;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') {
      throw err;
    }
    if (existsSync(to)) throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
    renameSync(from, to);
  }
}

/**
 * Moves `path` and its -wal/-shm/-journal into <dataDir>/quarantine/<timestamp>-<name>
 * (when `path` itself is gone, just its side files). Returns the new path of the main file.
 * Nothing is deleted, nothing is overwritten.
 */
export function quarantineFile(path: string): string {
  const dir = join(dirname(path), QUARANTINE_DIR_NAME);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = basename(path);
  for (let n = 0; ; n++) {
    const prefix = `${timestamp()}${n ? `-${n}` : ''}`;
    const target = join(dir, `${prefix}-${name}`);
    if ([target, ...SIDE_FILES.map((s) => target + s)].some((p) => existsSync(p))) continue;
    try {
      if (existsSync(path)) moveNoClobber(path, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 100) continue;
      throw err;
    }
    for (const side of SIDE_FILES) {
      if (existsSync(path + side)) moveNoClobber(path + side, target + side);
    }
    return target;
  }
}

// ---------------------------------------------------------------------------------------
// Plaintext → encrypted

function fsyncPath(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Directories cannot be fsynced on every platform (Windows); the rename is still atomic.
  } finally {
    closeSync(fd);
  }
}

function tableCounts(db: Db): Map<string, number> {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND rootpage > 0 AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  const counts = new Map<string, number>();
  for (const t of tables) {
    // Table names come from sqlite_master itself, quoted as identifiers.
    const n = db
      .prepare(`SELECT count(*) FROM "${t.replace(/"/g, '""')}"`)
      .pluck()
      .get() as number;
    counts.set(t, n);
  }
  return counts;
}

function sameCounts(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Hard-links `from` to `to` (instant, no second copy); copies where links are unsupported. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
    copyFileSync(from, to, fsConstants.COPYFILE_EXCL);
  }
}

/** memory.sqlite.plaintext-backup and its -wal/-journal backups, main file first. */
function backupPaths(path: string): { from: string; to: string }[] {
  const backup = path + PLAINTEXT_BACKUP_SUFFIX;
  return [
    { from: path, to: backup },
    ...DATA_SIDE_FILES.map((side) => ({ from: path + side, to: backup + side })),
  ];
}

/**
 * Encrypts a plaintext SQLite database, atomically, never touching the original until an
 * encrypted copy is verified.
 *
 * SQLCipher's `sqlcipher_export` (https://www.zetetic.net/sqlcipher/sqlcipher-api/#sqlcipher_export)
 * does not exist in SQLite3 Multiple Ciphers, the library under better-sqlite3-multiple-ciphers;
 * its equivalent is `PRAGMA rekey` on an unencrypted database, which rewrites every page
 * (https://utelle.github.io/SQLite3MultipleCiphers/docs/configuration/config_sql_pragmas/#pragma-rekey).
 * So, in a work folder inside the data folder (same file system, for the atomic rename):
 *   1. copy memory.sqlite and its -wal there; fold the WAL in (checkpoint) and check the copy
 *      (quick_check, row count of every table, user_version). Unreadable → "damaged" error,
 *      the original files are byte-identical;
 *   2. encrypt the copy with the key (PRAGMA rekey) and verify it from a fresh connection:
 *      integrity_check, the same row counts and user_version, no plaintext header;
 *   3. keep the original as memory.sqlite.plaintext-backup (+ -wal, -journal), hard links;
 *   4. rename the encrypted copy over memory.sqlite (atomic) and fsync the folder;
 *   5. remove the plaintext -wal/-shm/-journal (SQLite would apply them to the encrypted
 *      file), then the backup.
 * A crash before 4 leaves the plaintext database as it was (plus a backup, moved to
 * quarantine/ on the next attempt, never overwritten); a crash after 4 leaves the verified
 * encrypted database plus a backup, which openDataDirDatabase completes on the next
 * start.
 */
export function migratePlaintextDatabase(path: string, key: Buffer, logger: Logger): void {
  const dataDir = dirname(path);
  const work = join(dataDir, `.encrypting-${randomUUID()}`);
  const copy = join(work, DATABASE_FILE_NAME);
  const backup = backupPaths(path);
  mkdirSync(work, { mode: 0o700 });
  let counts: Map<string, number>;
  let userVersion: number;
  try {
    // 1. A private copy of the plaintext database, WAL folded in.
    copyFileSync(path, copy, fsConstants.COPYFILE_EXCL);
    // A -wal holds committed pages; a hot -journal undoes a half-done transaction: SQLite
    // applies either to the copy when it opens it.
    for (const side of DATA_SIDE_FILES) {
      if (fileSize(path + side) > 0) copyFileSync(path + side, copy + side);
    }
    try {
      const src = new Database(copy, { fileMustExist: true });
      try {
        src.pragma('temp_store = MEMORY');
        src.pragma('wal_checkpoint(TRUNCATE)');
        src.pragma('journal_mode = DELETE');
        const check = src.pragma('quick_check', { simple: true });
        if (check !== 'ok') throw damaged(`${path} is damaged (${String(check)}).`);
        counts = tableCounts(src);
        userVersion = src.pragma('user_version', { simple: true }) as number;
      } finally {
        src.close();
      }
    } catch (err) {
      if (isCairnError(err)) throw err;
      if (isCorruption(err)) throw damaged(`${path} is damaged.`, err);
      throw err;
    }

    // 2. Encrypt the copy, then verify it as openDatabase will read it.
    const enc = new Database(copy, { fileMustExist: true });
    try {
      enc.pragma('temp_store = MEMORY');
      enc.pragma(`cipher = 'sqlcipher'`);
      enc.pragma(`rekey = "x'${key.toString('hex')}'"`);
    } finally {
      enc.close();
    }
    if (inspectDatabaseFile(copy) !== 'encrypted') throw new Error('the copy is not encrypted');
    const check = new Database(copy, { fileMustExist: true });
    try {
      applyKey(check, key);
      const integrity = check.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') throw new Error(`integrity_check: ${String(integrity)}`);
      if (!sameCounts(counts, tableCounts(check))) throw new Error('row counts differ');
      const v = check.pragma('user_version', { simple: true }) as number;
      if (v !== userVersion) throw new Error(`user_version ${v} != ${userVersion}`);
    } finally {
      check.close();
    }
    fsyncPath(copy);

    // 3. Backup (an older one from an interrupted run is moved aside, never overwritten).
    for (const { to: old } of backup) {
      if (existsSync(old)) {
        logger.warn('an earlier plaintext backup was moved to quarantine', {
          path: quarantineFile(old),
        });
      }
    }
    for (const { from, to } of backup) if (existsSync(from)) linkOrCopy(from, to);
    fsyncPath(dataDir);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    if (isCairnError(err)) throw err;
    throw new CairnError(
      ErrorCode.DatabaseUnreadable,
      `Encrypting the plaintext database ${path} failed (${err instanceof Error ? err.message : String(err)}); it was left as it was.`,
      { status: 500, cause: err },
    );
  }

  // 4. Swap in atomically. 5. Drop the plaintext leftovers.
  renameSync(copy, path);
  fsyncPath(dataDir);
  rmSync(work, { recursive: true, force: true });
  removePlaintextLeftovers(path);
  logger.info('plaintext database encrypted', { tables: counts.size });
}

/** After the encrypted file is in place: the plaintext WAL/SHM, then the backup. */
function removePlaintextLeftovers(path: string): void {
  for (const side of SIDE_FILES) rmSync(path + side, { force: true });
  fsyncPath(dirname(path));
  for (const { to } of backupPaths(path)) rmSync(to, { force: true });
}

// ---------------------------------------------------------------------------------------
// Open

export interface OpenDataDirOptions {
  dataDir: string;
  key: Buffer;
  logger: Logger;
}

export interface OpenedDatabase {
  db: Db;
  path: string;
  /** Where an unreadable file was moved (to show in /health and the UI), else null. */
  quarantined: string | null;
  /** True when a plaintext database was found and encrypted during this open. */
  migratedFromPlaintext: boolean;
}

/** The database holds the user's memory: only its owner may read it (no-op on Windows). */
function restrictPermissions(path: string): void {
  if (process.platform === 'win32') return;
  try {
    // Created empty with 0600 here, SQLite keeps that mode for -wal and -shm.
    closeSync(openSync(path, fsConstants.O_CREAT | fsConstants.O_WRONLY, 0o600));
    chmodSync(path, 0o600);
  } catch {
    // A read-only data folder fails later with a clearer error from SQLite.
  }
}

function isCorruption(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB';
}

/**
 * Opens (creating if needed) <dataDir>/memory.sqlite with `key`. Throws CairnError
 * `wrong_key` (file untouched) when the key does not open an encrypted database; moves an
 * unreadable non-database to quarantine/ and starts fresh; encrypts a plaintext database.
 */
export function openDataDirDatabase(options: OpenDataDirOptions): OpenedDatabase {
  const { dataDir, key, logger } = options;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE_NAME);
  let quarantined: string | null = null;
  let migratedFromPlaintext = false;
  let keyProvenRight = false;

  const quarantine = (reason: string): void => {
    quarantined = quarantineFile(path);
    logger.error('unreadable database moved to quarantine; starting with an empty one', {
      reason,
      quarantined,
    });
  };

  const kind = inspectDatabaseFile(path);
  if (
    (kind === 'missing' || kind === 'empty') &&
    DATA_SIDE_FILES.some((side) => fileSize(path + side) > 0)
  ) {
    // SQLite deletes a -wal or -journal it finds beside an empty database; they may be all
    // that is left of one, so they are kept.
    quarantine('a -wal or -journal without its database');
  } else if (kind === 'not-a-database') {
    quarantine('not an SQLite or SQLCipher database');
  } else if (kind === 'plaintext') {
    try {
      migratePlaintextDatabase(path, key, logger);
      migratedFromPlaintext = true;
    } catch (err) {
      // Damaged = unreadable without any key, so no key could ever read it. Anything else
      // (disk full, file in use) leaves the plaintext database in place and is reported.
      if (!(err instanceof Error) || !damagedErrors.has(err)) throw err;
      quarantine('damaged plaintext SQLite database');
    }
  } else if (kind === 'encrypted') {
    const opens = keyOpensDatabase(path, key);
    keyProvenRight = opens === true;
    if (opens === false) {
      throw new CairnError(
        ErrorCode.WrongKey,
        `The database ${path} cannot be opened with this key: it was encrypted with a different key. ` +
          'It was left untouched. Start Cairn with CAIRN_RECOVERY_KEY set to its recovery key, or with the right CAIRN_DB_KEY.',
        { status: 500 },
      );
    }
    if (opens === true && existsSync(path + PLAINTEXT_BACKUP_SUFFIX)) {
      // A migration stopped after its verified rename (step 4): the encrypted file has never
      // been opened since, so any -wal/-shm beside it are the plaintext ones. Finish step 5.
      removePlaintextLeftovers(path);
      logger.info('finished an interrupted plaintext migration');
    }
  }
  restrictPermissions(path);

  try {
    const db = openDatabase({ path, key });
    return { db, path, quarantined, migratedFromPlaintext };
  } catch (err) {
    // Page 1 decrypted with this key (keyOpensDatabase said so, or openDatabase's own key
    // check passed, as any error but wrong_key shows), so the key is right and the file is
    // damaged further in: no key can help it.
    const keyIsRight = keyProvenRight || !(isCairnError(err) && err.code === ErrorCode.WrongKey);
    const corrupt =
      isCorruption(err) ||
      (isCairnError(err) && err.code === ErrorCode.WrongKey && isCorruption(err.cause));
    if (quarantined === null && keyIsRight && corrupt) {
      quarantine('damaged encrypted database (the key is right)');
      const db = openDatabase({ path, key });
      return { db, path, quarantined, migratedFromPlaintext };
    }
    throw err;
  }
}

/**
 * Re-encrypts the open database with `newKey` (PRAGMA rekey). Use rotateDatabaseKey
 * (secrets.ts) for `cairn rekey`: it keeps the new key safe before the database changes.
 *
 * In WAL mode, PRAGMA rekey re-encrypts pages into the WAL while page 1 of the main file
 * still holds the old key: a crash before the next checkpoint leaves a database neither key
 * reads in full (measured: the old key opened it with the WAL's rows gone). So the WAL is
 * checkpointed and the rekey runs in rollback-journal mode, where it is one atomic
 * transaction, then WAL mode is restored.
 */
export function rekeyDatabase(db: Db, newKey: Buffer): void {
  if (newKey.length !== 32) {
    throw new CairnError(ErrorCode.InvalidKey, 'The new key must be 32 bytes.');
  }
  const mode = db.pragma('journal_mode', { simple: true }) as string;
  if (mode === 'wal') {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
  }
  try {
    db.pragma(`rekey = "x'${newKey.toString('hex')}'"`);
  } finally {
    if (mode === 'wal') db.pragma('journal_mode = WAL');
  }
  // Prove the new key is in effect before the caller forgets the old one.
  db.prepare('SELECT count(*) FROM sqlite_master').get();
}

/**
 * True when another process (a running Cairn) has the database open. Leaving WAL mode needs
 * every other connection closed, and SQLite answers the mode it kept when it cannot change
 * it (https://www.sqlite.org/pragma.html#pragma_journal_mode); when it can, WAL mode is set
 * back at once. For maintenance that must run alone (`cairn rekey`).
 */
export function databaseOpenElsewhere(db: Db): boolean {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return false;
  let mode: unknown;
  try {
    mode = db.pragma('journal_mode = DELETE', { simple: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
    throw err;
  }
  if (mode !== 'delete') return true;
  db.pragma('journal_mode = WAL');
  return false;
}
