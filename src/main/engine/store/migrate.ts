import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import type { Db } from './db.ts';
import { migration001 } from './migrations/001_initial.ts';
import { migration002 } from './migrations/002_stemmed_fts.ts';
import { migration003 } from './migrations/003_drop_unstemmed_transcript_fts.ts';
import { migration004 } from './migrations/004_explicit_transcript_fts_insert.ts';
import { migration005 } from './migrations/005_scrub_private.ts';
import { migration006 } from './migrations/006_typed_facts.ts';
import { migration007 } from './migrations/007_memory_additions_and_response_chain.ts';
import { migration009 } from './migrations/009_trash.ts';
import { migration010 } from './migrations/010_agent_settings.ts';
import { migration011 } from './migrations/011_memory_activity.ts';
import { migration012 } from './migrations/012_scrub_private_response_chain.ts';
import { migration013 } from './migrations/013_forgotten.ts';
import { migration014 } from './migrations/014_transcript_rewrites.ts';

// Shipped migrations import Db from here and are never edited, so the type stays reachable.
export type { Db } from './db.ts';

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

/**
 * Every migration, applied in version order (the list is sorted, so where a line is added
 * does not matter). A shipped migration is never edited; add a new file instead.
 */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
].sort((a, b) => a.version - b.version);

export const latestVersion = migrations.at(-1)?.version ?? 0;

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema to `target` (default: latest), one transaction per migration, tracked
 * with PRAGMA user_version. Refuses a database written by a newer Cairn.
 */
export function migrate(db: Db, target: number = latestVersion): number {
  const current = schemaVersion(db);
  if (current > latestVersion) {
    throw new CairnError(
      ErrorCode.DatabaseTooNew,
      `The database is at schema version ${current}, newer than this Cairn supports (${latestVersion}). Update Cairn to open it.`,
      { status: 500 },
    );
  }
  let applied = 0;
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied++;
  }
  return applied;
}
