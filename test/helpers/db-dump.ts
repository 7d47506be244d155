// Looks for a string in every value of a decrypted database: each table of sqlite_master
// (virtual FTS5 tables and their shadow tables `%_data`, `%_idx`, `%_docsize`, `%_config`
// included), each text and blob column. FTS5 keeps its terms lower-cased inside binary
// blobs, so blobs are compared case-insensitively byte for byte.
import type { Db } from '../../src/main/engine/store/db.ts';

/** `table.column` of every value that holds `needle` (empty when none does). */
export function findInDatabase(db: Db, needle: string): string[] {
  const lower = needle.toLowerCase();
  const lowerBytes = Buffer.from(lower, 'utf8');
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all() as string[];
  const found = new Set<string>();
  for (const table of tables) {
    const rows = db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all() as Record<
      string,
      unknown
    >[];
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (holds(value, lower, lowerBytes)) found.add(`${table}.${column}`);
      }
    }
  }
  return [...found];
}

function holds(value: unknown, lower: string, lowerBytes: Buffer): boolean {
  if (typeof value === 'string') return value.toLowerCase().includes(lower);
  if (Buffer.isBuffer(value)) return lowercaseAscii(value).includes(lowerBytes);
  return false;
}

function lowercaseAscii(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) {
    const b = out[i]!;
    if (b >= 0x41 && b <= 0x5a) out[i] = b + 0x20;
  }
  return out;
}

/** The names of every table of the database, shadow tables included (to show what was read). */
export function tableNames(db: Db): string[] {
  return db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all() as string[];
}
