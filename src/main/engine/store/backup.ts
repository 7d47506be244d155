// Encrypted backup (issue 4: Settings → export "an encrypted backup"). `VACUUM INTO` writes a
// consistent, compacted copy of the open database; with SQLite3 Multiple Ciphers the copy is
// encrypted with the same cipher and key as the source, so it never exists in plaintext and
// opens with this installation's key or its recovery key.
// https://www.sqlite.org/lang_vacuum.html#vacuuminto
// https://utelle.github.io/SQLite3MultipleCiphers/docs/configuration/config_sql_pragmas/
import type { Db } from './migrate.ts';

/** Writes an encrypted copy of `db` to `destPath`, which must not exist yet. */
export function writeEncryptedCopy(db: Db, destPath: string): void {
  db.prepare('VACUUM INTO ?').run(destPath);
}
