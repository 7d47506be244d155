import type { Db } from './db.ts';

// Small engine state (access token, timer bookkeeping) kept inside the encrypted file.

export function getMeta(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
    { value: string } | undefined;
  return row?.value ?? null;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}

export function deleteMeta(db: Db, key: string): boolean {
  return db.prepare('DELETE FROM meta WHERE key = ?').run(key).changes > 0;
}
