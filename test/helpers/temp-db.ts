import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/main/engine/store/open.ts';
import type { Db } from '../../src/main/engine/store/db.ts';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'cairn-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real encrypted database file in a temporary directory. */
export function tempDatabase(options: { migrate?: boolean } = {}): {
  db: Db;
  path: string;
  key: Buffer;
  dir: string;
  cleanup: () => void;
} {
  const { dir, cleanup } = tempDir();
  const key = randomBytes(32);
  const path = join(dir, 'memory.sqlite');
  const db = openDatabase({ path, key, migrate: options.migrate ?? true });
  return {
    db,
    path,
    key,
    dir,
    cleanup: () => {
      if (db.open) db.close();
      cleanup();
    },
  };
}
