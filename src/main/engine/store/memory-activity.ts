// What memory did for recent requests (migration 011, issue 12): one row per request with
// the agent header, the newest `keepPerAgent` kept per agent. Rows name where each injected
// line came from; the lines' text is stored only when the caller passes it (the user opted in
// with `activityKeepLines`). Every query is scoped by agent_id, except the list across all
// agents the UI shows when no agent is chosen.
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db.ts';
import { bumpEpisodeUsage, bumpPinnedUsage } from './search.ts';

/** Where an injected line came from: a row of the agent's memory (identity lines have no id). */
export interface ActivitySourceRecord {
  scope: 'identity' | 'pinned' | 'episodes' | 'transcript';
  id: number | null;
}

export interface NewActivity {
  agentId: string;
  at: number;
  conversationId: string;
  protocol: string;
  section: string;
  tokens: number;
  /** The `x-cairn-memory` value the request was answered with. */
  header: string;
  sources: readonly ActivitySourceRecord[];
  /** The lines' text in the order of `sources`, or null when it must not be kept. */
  lines: readonly string[] | null;
}

export interface ActivityRecord extends Omit<NewActivity, 'lines' | 'sources'> {
  id: number;
  sources: ActivitySourceRecord[];
  lines: string[] | null;
}

interface Row {
  id: number;
  agent_id: string;
  at: number;
  conversation_id: string;
  protocol: string;
  section: string;
  tokens: number;
  header: string;
  sources: string;
  lines: string | null;
}

/** Rows kept per agent when the caller does not say otherwise. */
export const ACTIVITY_ROWS_PER_AGENT = 1000;

const statements = new WeakMap<Db, { insert: Statement; prune: Statement }>();

function writeStatements(db: Db): { insert: Statement; prune: Statement } {
  let s = statements.get(db);
  if (!s) {
    s = {
      insert: db.prepare(
        `INSERT INTO memory_activity
           (agent_id, at, conversation_id, protocol, section, tokens, header, sources, lines)
         VALUES (@agentId, @at, @conversationId, @protocol, @section, @tokens, @header, @sources, @lines)`,
      ),
      // The id of the oldest row to keep is found through the (agent_id, id) index; everything
      // of this agent below it goes. At most a row or two per insert once the agent is full.
      prune: db.prepare(
        `DELETE FROM memory_activity WHERE agent_id = @agentId AND id < (
           SELECT id FROM memory_activity WHERE agent_id = @agentId
           ORDER BY id DESC LIMIT 1 OFFSET @keep - 1)`,
      ),
    };
    statements.set(db, s);
  }
  return s;
}

/** Stores one request's activity and drops the agent's rows beyond the newest `keepPerAgent`. */
export function insertActivity(
  db: Db,
  activity: NewActivity,
  keepPerAgent = ACTIVITY_ROWS_PER_AGENT,
): number {
  return db.transaction(() => writeActivity(db, activity, keepPerAgent))();
}

/** The memory rows an injected block used: their use_count / last_used are bumped. */
export interface ActivityUse {
  pinned: readonly number[];
  episodes: readonly number[];
  /** When they were used (ms). */
  at: number;
}

/**
 * What one request's memory did, in one commit: the activity row (with the pruning of
 * insertActivity) and the usage of the facts and episodes its block showed. One transaction
 * instead of one per table keeps a proxied request to a single write after its answer.
 */
export function recordActivity(
  db: Db,
  activity: NewActivity,
  use: ActivityUse,
  keepPerAgent = ACTIVITY_ROWS_PER_AGENT,
): number {
  return db.transaction(() => {
    const id = writeActivity(db, activity, keepPerAgent);
    bumpPinnedUsage(db, activity.agentId, use.pinned, use.at);
    bumpEpisodeUsage(db, activity.agentId, use.episodes, use.at);
    return id;
  })();
}

function writeActivity(db: Db, activity: NewActivity, keepPerAgent: number): number {
  const s = writeStatements(db);
  const id = Number(
    s.insert.run({
      agentId: activity.agentId,
      at: activity.at,
      conversationId: activity.conversationId,
      protocol: activity.protocol,
      section: activity.section,
      tokens: activity.tokens,
      header: activity.header,
      sources: JSON.stringify(activity.sources.map((x) => ({ scope: x.scope, id: x.id }))),
      lines: activity.lines === null ? null : JSON.stringify(activity.lines),
    }).lastInsertRowid,
  );
  s.prune.run({ agentId: activity.agentId, keep: Math.max(1, keepPerAgent) });
  return id;
}

/** The newest activity, of one agent or of all, newest first. */
export function listActivity(db: Db, query: { agentId?: string; limit: number }): ActivityRecord[] {
  const rows = (
    query.agentId === undefined
      ? db.prepare('SELECT * FROM memory_activity ORDER BY id DESC LIMIT ?').all(query.limit)
      : db
          .prepare('SELECT * FROM memory_activity WHERE agent_id = ? ORDER BY id DESC LIMIT ?')
          .all(query.agentId, query.limit)
  ) as Row[];
  return rows.map(toRecord);
}

/** Forgets an agent's activity (the agent was deleted). Returns how many rows went. */
export function deleteAgentActivity(db: Db, agentId: string): number {
  return db.prepare('DELETE FROM memory_activity WHERE agent_id = ?').run(agentId).changes;
}

/** Drops the kept text of every row (the user turned `activityKeepLines` off). */
export function clearActivityLines(db: Db): number {
  return db.prepare('UPDATE memory_activity SET lines = NULL WHERE lines IS NOT NULL').run()
    .changes;
}

function toRecord(r: Row): ActivityRecord {
  return {
    id: r.id,
    agentId: r.agent_id,
    at: r.at,
    conversationId: r.conversation_id,
    protocol: r.protocol,
    section: r.section,
    tokens: r.tokens,
    header: r.header,
    sources: parseSources(r.sources),
    lines: r.lines === null ? null : parseLines(r.lines),
  };
}

const SCOPES = new Set<ActivitySourceRecord['scope']>([
  'identity',
  'pinned',
  'episodes',
  'transcript',
]);

function parseSources(json: string): ActivitySourceRecord[] {
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.flatMap((x: unknown): ActivitySourceRecord[] => {
      if (typeof x !== 'object' || x === null) return [];
      const { scope, id } = x as { scope?: unknown; id?: unknown };
      if (typeof scope !== 'string' || !SCOPES.has(scope as ActivitySourceRecord['scope'])) {
        return [];
      }
      return [
        {
          scope: scope as ActivitySourceRecord['scope'],
          id: typeof id === 'number' && Number.isInteger(id) ? id : null,
        },
      ];
    });
  } catch {
    return [];
  }
}

function parseLines(json: string): string[] | null {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : null;
  } catch {
    return null;
  }
}
