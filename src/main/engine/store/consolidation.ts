// Consolidation (DESIGN §8): the SQL of each step and of the consolidation_runs table. The
// rules live in memory/consolidator.ts; these functions only read and write rows. Every query
// on memory rows is scoped by agent_id.
import type { ConsolidationCounts } from '../../../shared/api.ts';
import type { Db } from './db.ts';
import { type EpisodeRecord, parseJsonList } from './episodes.ts';

// ---------- runs ----------

export interface RunSnapshot {
  pinned: number;
  episodes: number;
  avg_salience: number;
}

export interface RunRecord {
  id: number;
  trigger: 'timer' | 'manual';
  agent_id: string | null;
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'ok' | 'error';
  counts: ConsolidationCounts;
  snapshot: RunSnapshot | null;
  error: string | null;
}

/** A run as stored: counts and snapshot are JSON text. */
interface RunRow extends Omit<RunRecord, 'counts' | 'snapshot'> {
  counts: string;
  snapshot: string;
}

export const zeroCounts = (): ConsolidationCounts => ({
  decayed: 0,
  merged: 0,
  promoted: 0,
  evicted: 0,
  pruned_episodes: 0,
  pruned_transcript: 0,
});

function toRun(r: RunRow): RunRecord {
  let counts = zeroCounts();
  let snapshot: RunSnapshot | null = null;
  try {
    counts = { ...counts, ...(JSON.parse(r.counts) as Partial<ConsolidationCounts>) };
  } catch {
    // keep zeros
  }
  try {
    const s = JSON.parse(r.snapshot) as Partial<RunSnapshot>;
    if (typeof s.pinned === 'number') {
      snapshot = { pinned: s.pinned, episodes: s.episodes ?? 0, avg_salience: s.avg_salience ?? 0 };
    }
  } catch {
    // no snapshot
  }
  return { ...r, counts, snapshot };
}

export function insertRun(
  db: Db,
  trigger: 'timer' | 'manual',
  agentId: string | null,
  now: number,
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO consolidation_runs (trigger, agent_id, started_at, status) VALUES (?, ?, ?, 'running')`,
      )
      .run(trigger, agentId, now).lastInsertRowid,
  );
}

export function finishRun(
  db: Db,
  id: number,
  r: {
    status: 'ok' | 'error';
    counts: ConsolidationCounts;
    snapshot: RunSnapshot;
    error: string | null;
    now: number;
  },
): RunRecord {
  db.prepare(
    `UPDATE consolidation_runs SET status = ?, counts = ?, snapshot = ?, error = ?, finished_at = ?
     WHERE id = ?`,
  ).run(r.status, JSON.stringify(r.counts), JSON.stringify(r.snapshot), r.error, r.now, id);
  return getRun(db, id)!;
}

export function getRun(db: Db, id: number): RunRecord | null {
  const r = db.prepare('SELECT * FROM consolidation_runs WHERE id = ?').get(id) as
    RunRow | undefined;
  return r ? toRun(r) : null;
}

export function listRuns(db: Db, limit: number, agentId?: string): RunRecord[] {
  const rows =
    agentId === undefined
      ? db
          .prepare('SELECT * FROM consolidation_runs ORDER BY started_at DESC, id DESC LIMIT ?')
          .all(limit)
      : db
          .prepare(
            'SELECT * FROM consolidation_runs WHERE agent_id = ? OR agent_id IS NULL ORDER BY started_at DESC, id DESC LIMIT ?',
          )
          .all(agentId, limit);
  return (rows as RunRow[]).map(toRun);
}

/** When the last run over all agents finished (the timer's reference point). */
export function lastFullRunAt(db: Db): number | null {
  const r = db
    .prepare(
      `SELECT max(coalesce(finished_at, started_at)) AS t FROM consolidation_runs WHERE agent_id IS NULL`,
    )
    .get() as { t: number | null };
  return r.t;
}

/** Runs left 'running' by a process that died are closed as errors. */
export function closeStaleRuns(db: Db, now: number): number {
  return db
    .prepare(
      `UPDATE consolidation_runs SET status = 'error', finished_at = ?, error = 'interrupted (the app stopped during the run)'
       WHERE status = 'running'`,
    )
    .run(now).changes;
}

// ---------- agents ----------

/** Every agent with memory rows (a run over all agents visits each, scoped by agent_id). */
export function listMemoryAgents(db: Db): string[] {
  return (
    db
      .prepare(
        `SELECT agent_id FROM episodes UNION SELECT agent_id FROM pinned_facts
         UNION SELECT agent_id FROM transcript ORDER BY agent_id`,
      )
      .all() as { agent_id: string }[]
  ).map((r) => r.agent_id);
}

// ---------- decay ----------

// salience × 0.5^(Δdays / halfLife), Δ since the row's last decay, in one UPDATE per table.
// pow() comes from SQLite's math functions, compiled into better-sqlite3-multiple-ciphers
// (https://www.sqlite.org/lang_mathfunc.html).
const decaySql = (table: string, extra: string) => `
  UPDATE ${table}
  SET salience = salience * pow(0.5, (@now - coalesce(last_decay_at, created_at)) / 86400000.0 / @halfLife),
      last_decay_at = @now
  WHERE agent_id = @agentId AND coalesce(last_decay_at, created_at) < @now ${extra}`;

export function decayEpisodes(db: Db, agentId: string, now: number, halfLifeDays: number): number {
  return db.prepare(decaySql('episodes', '')).run({ agentId, now, halfLife: halfLifeDays }).changes;
}

/** User-pinned facts keep the salience the user gave them. */
export function decayFacts(db: Db, agentId: string, now: number, halfLifeDays: number): number {
  return db
    .prepare(decaySql('pinned_facts', 'AND pinned_by_user = 0'))
    .run({ agentId, now, halfLife: halfLifeDays }).changes;
}

/** Sets a fact's salience and restarts its decay clock (promotion). */
export function setFactDecay(
  db: Db,
  agentId: string,
  id: number,
  salience: number,
  now: number,
): void {
  db.prepare(
    'UPDATE pinned_facts SET salience = ?, last_decay_at = ? WHERE id = ? AND agent_id = ?',
  ).run(salience, now, id, agentId);
}

// ---------- merge ----------

export type MergeEpisode = Pick<
  EpisodeRecord,
  | 'id'
  | 'summary'
  | 'topics'
  | 'entities'
  | 'decisions'
  | 'action_items'
  | 'salience'
  | 'last_used'
  | 'conversation_at'
>;

export function episodesForMerge(db: Db, agentId: string): MergeEpisode[] {
  return (
    db
      .prepare(
        `SELECT id, summary, topics, entities, decisions, action_items, salience, last_used, conversation_at
         FROM episodes WHERE agent_id = ? ORDER BY id`,
      )
      .all(agentId) as (Omit<MergeEpisode, 'topics' | 'entities' | 'decisions' | 'action_items'> & {
      topics: string;
      entities: string;
      decisions: string;
      action_items: string;
    })[]
  ).map((r) => ({
    ...r,
    topics: parseJsonList(r.topics),
    entities: parseJsonList(r.entities),
    decisions: parseJsonList(r.decisions),
    action_items: parseJsonList(r.action_items),
  }));
}

/** Folds `removeId` into `keep`: lists unioned, max salience, facts repointed, row deleted. */
export function mergeEpisodeInto(
  db: Db,
  agentId: string,
  keep: MergeEpisode,
  removeId: number,
  now: number,
): void {
  db.prepare(
    `UPDATE episodes SET topics = ?, entities = ?, decisions = ?, action_items = ?, salience = ?,
       last_used = ?, conversation_at = ?, updated_at = ?
     WHERE id = ? AND agent_id = ?`,
  ).run(
    JSON.stringify(keep.topics),
    JSON.stringify(keep.entities),
    JSON.stringify(keep.decisions),
    JSON.stringify(keep.action_items),
    keep.salience,
    keep.last_used,
    keep.conversation_at,
    now,
    keep.id,
    agentId,
  );
  db.prepare(
    'UPDATE pinned_facts SET source_episode_id = ? WHERE source_episode_id = ? AND agent_id = ?',
  ).run(keep.id, removeId, agentId);
  db.prepare('DELETE FROM episodes WHERE id = ? AND agent_id = ?').run(removeId, agentId);
}

// ---------- promote ----------

export interface PromoteFact {
  id: number;
  content: string;
  salience: number;
}

export function activeFacts(db: Db, agentId: string): PromoteFact[] {
  return db
    .prepare(
      `SELECT id, content, salience FROM pinned_facts WHERE agent_id = ? AND status = 'active'`,
    )
    .all(agentId) as PromoteFact[];
}

export function recentEpisodeTexts(
  db: Db,
  agentId: string,
  since: number,
): { id: number; text: string }[] {
  return (
    db
      .prepare(
        `SELECT id, summary, topics, entities, decisions, action_items FROM episodes
         WHERE agent_id = ? AND conversation_at >= ?`,
      )
      .all(agentId, since) as {
      id: number;
      summary: string;
      topics: string;
      entities: string;
      decisions: string;
      action_items: string;
    }[]
  ).map((r) => ({
    id: r.id,
    text: [
      r.summary,
      ...parseJsonList(r.topics),
      ...parseJsonList(r.entities),
      ...parseJsonList(r.decisions),
      ...parseJsonList(r.action_items),
    ].join(' '),
  }));
}

// ---------- evict ----------

/**
 * Facts below the floor, unused since `unusedBefore`, never user-pinned: what evict moves to
 * the trash (the deletion itself goes through the trash, memory/deletion.ts).
 */
export function factsToEvict(
  db: Db,
  agentId: string,
  floor: number,
  unusedBefore: number,
): number[] {
  return db
    .prepare(
      `SELECT id FROM pinned_facts
        WHERE agent_id = ? AND pinned_by_user = 0 AND salience < ?
          AND coalesce(last_used, created_at) < ?
        ORDER BY id`,
    )
    .pluck()
    .all(agentId, floor, unusedBefore) as number[];
}

// ---------- prune ----------

/**
 * Episodes Cairn stored before `storedBefore` (their `created_at`, the time of writing), never
 * by `conversation_at`: imported history keeps its own old dates and must not be pruned for
 * them.
 */
export function episodesToPrune(db: Db, agentId: string, storedBefore: number): number[] {
  return db
    .prepare('SELECT id FROM episodes WHERE agent_id = ? AND created_at < ? ORDER BY id')
    .pluck()
    .all(agentId, storedBefore) as number[];
}

/**
 * Transcript messages older than `before` by their own time: only when the user set a
 * transcript retention (the transcript is their record and is kept by default).
 */
export function transcriptToPrune(db: Db, agentId: string, before: number): number[] {
  return db
    .prepare('SELECT id FROM transcript WHERE agent_id = ? AND created_at < ? ORDER BY id')
    .pluck()
    .all(agentId, before) as number[];
}

/** Housekeeping: processed signals and old log rows are not kept forever. */
export function pruneBookkeeping(db: Db, agentId: string, before: number): void {
  db.prepare(
    `DELETE FROM pending_signals WHERE agent_id = ? AND status = 'processed' AND updated_at < ?`,
  ).run(agentId, before);
}

// ---------- snapshot ----------

export function memorySnapshot(db: Db, agentId?: string): RunSnapshot {
  const where = agentId === undefined ? '' : 'WHERE agent_id = ?';
  const params = agentId === undefined ? [] : [agentId];
  const pinned = db
    .prepare(
      `SELECT count(*) AS n, avg(salience) AS avg FROM pinned_facts ${where ? where + " AND status = 'active'" : "WHERE status = 'active'"}`,
    )
    .get(...params) as { n: number; avg: number | null };
  const episodes = db.prepare(`SELECT count(*) AS n FROM episodes ${where}`).get(...params) as {
    n: number;
  };
  return {
    pinned: pinned.n,
    episodes: episodes.n,
    avg_salience: Math.round((pinned.avg ?? 0) * 1000) / 1000,
  };
}
