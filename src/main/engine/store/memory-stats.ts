// Counts and sizes for GET /memory/stats and /memory/diagnostics.
import type { Db } from './db.ts';

export interface MemoryCounts {
  agents: number;
  pinned: number;
  episodes: number;
  transcript: number;
  pending: number;
  dead_letters: number;
  vectors: number;
}

export function memoryCounts(db: Db): MemoryCounts {
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    agents: n(
      `SELECT count(*) AS n FROM (SELECT agent_id FROM transcript UNION SELECT agent_id FROM episodes
       UNION SELECT agent_id FROM pinned_facts UNION SELECT agent_id FROM identity)`,
    ),
    pinned: n('SELECT count(*) AS n FROM pinned_facts'),
    episodes: n('SELECT count(*) AS n FROM episodes'),
    transcript: n('SELECT count(*) AS n FROM transcript'),
    pending: n(
      `SELECT count(*) AS n FROM pending_signals WHERE status IN ('pending', 'processing')`,
    ),
    dead_letters: n(`SELECT count(*) AS n FROM pending_signals WHERE status = 'dead_letter'`),
    vectors: n('SELECT count(*) AS n FROM vectors'),
  };
}

/** Size of the main database file in bytes (pages in use × page size). */
export function databaseSizeBytes(db: Db): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const size = db.pragma('page_size', { simple: true }) as number;
  return pages * size;
}
