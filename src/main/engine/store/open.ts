import Database from 'better-sqlite3-multiple-ciphers';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

export interface OpenOptions {
  /** Path of memory.sqlite, or ':memory:' in unit tests. */
  path: string;
  /** The raw 32-byte SQLCipher key. */
  key: Buffer;
  readonly?: boolean;
  /** Run migrations (default true). */
  migrate?: boolean;
}

/**
 * Opens the encrypted database. The key is applied first and checked with a read before any
 * pragma that writes, so a wrong key leaves the file byte-identical
 * (https://www.zetetic.net/sqlcipher/sqlcipher-api/#testing-the-key).
 */
export function openDatabase(options: OpenOptions): Db {
  if (options.key.length !== 32) {
    throw new CairnError(
      ErrorCode.BadRequest,
      'The database key must be 32 bytes (64 hex characters).',
    );
  }
  const db = new Database(options.path, {
    readonly: options.readonly ?? false,
    fileMustExist: false,
  });
  try {
    db.pragma(`cipher = 'sqlcipher'`);
    db.pragma(`key = "x'${options.key.toString('hex')}'"`);
    // Temporary files (statement journals of savepoints, sorts, temp tables) are not
    // encrypted by SQLite3 Multiple Ciphers: on disk (this build's default, TEMP_STORE=1) they
    // held plaintext page copies, in an unlinked file under /var/tmp, whenever a transaction's
    // savepoints outgrew 64 KiB (a batch of chat turns, an ingest). In memory they never
    // reach the disk.
    db.pragma('temp_store = MEMORY');
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
        throw new CairnError(
          ErrorCode.DatabaseLocked,
          `The database at ${options.path} is locked by another process (is another Cairn running?).`,
          { status: 503, cause: err },
        );
      }
      // Anything but "not a database" (SQLCipher's answer to a wrong key) is an I/O or
      // corruption error: let the caller see it as it is (store/database-file.ts decides).
      if (code !== 'SQLITE_NOTADB') throw err;
      throw new CairnError(
        ErrorCode.WrongKey,
        `The database at ${options.path} cannot be opened with this key (wrong key, or not a Cairn database). It was left untouched.`,
        { status: 500, cause: err },
      );
    }
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    // Left at their defaults on purpose, measured on the 100k-row read path: cache_size stays
    // at the build's default (-16000, i.e. 16 MB per connection; 64 MB changed nothing
    // measurable). The read cache is kept warm by writing chat turns on this same connection
    // (store/transcript-writer.ts), not by a bigger cache. SQLCipher's
    // `cipher_memory_security` does not exist in SQLite3 Multiple Ciphers (ignored), and its
    // own `memory_security` (wipe memory before freeing it) is off by default
    // (https://github.com/utelle/SQLite3MultipleCiphers/releases/tag/v1.7.0): nothing to turn off.
    db.pragma('foreign_keys = ON');
    db.pragma('secure_delete = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly && options.migrate !== false) migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
