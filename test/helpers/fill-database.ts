// Makes a database large (tests and benches of whole-file work: backups, integrity checks)
// quickly: rows of random bytes in a table of their own, written by SQLite itself in one
// statement. Random bytes, so the size on disk is what was asked for.
import type { Db } from '../../src/main/engine/store/db.ts';

/**
 * Bytes per row: one row fills one 4 KiB page (SQLCipher reserves 80 bytes of each for its IV
 * and HMAC, and a row must fit in what is left, less its cell header, to need no overflow page).
 */
const FILLER_ROW_BYTES = 3800;
const PAGE_SIZE = 4096;

/** Adds about `bytes` to the file, as rows of the `filler` table (created if needed); returns its row count. */
export function fillDatabase(db: Db, bytes: number): number {
  const rows = Math.ceil(bytes / PAGE_SIZE);
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, b BLOB NOT NULL)');
  const batch = 10_000;
  for (let done = 0; done < rows; done += batch) {
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO filler (b) SELECT randomblob(?) FROM n`,
    ).run(Math.min(batch, rows - done), FILLER_ROW_BYTES);
  }
  return db.prepare('SELECT count(*) FROM filler').pluck().get() as number;
}
