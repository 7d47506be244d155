import type { Db } from './db.ts';

// Per-agent controls (migration 010). Null fields fall back to the global settings.

export interface AgentSettingsRecord {
  agentId: string;
  displayName: string | null;
  paused: boolean;
  memoryBudgetTokens: number | null;
  episodeRetentionDays: number | null;
  transcriptRetentionDays: number | null;
}

export type AgentSettingsPatch = Partial<Omit<AgentSettingsRecord, 'agentId'>>;

interface Row {
  agent_id: string;
  display_name: string | null;
  paused: number;
  memory_budget_tokens: number | null;
  episode_retention_days: number | null;
  transcript_retention_days: number | null;
}

const toRecord = (r: Row): AgentSettingsRecord => ({
  agentId: r.agent_id,
  displayName: r.display_name,
  paused: r.paused === 1,
  memoryBudgetTokens: r.memory_budget_tokens,
  episodeRetentionDays: r.episode_retention_days,
  transcriptRetentionDays: r.transcript_retention_days,
});

const DEFAULTS = (agentId: string): AgentSettingsRecord => ({
  agentId,
  displayName: null,
  paused: false,
  memoryBudgetTokens: null,
  episodeRetentionDays: null,
  transcriptRetentionDays: null,
});

const selectOne = new WeakMap<Db, ReturnType<Db['prepare']>>();

/** The agent's controls (every field null/false when it has none: the global defaults). */
export function getAgentSettings(db: Db, agentId: string): AgentSettingsRecord {
  let stmt = selectOne.get(db);
  if (!stmt) {
    stmt = db.prepare('SELECT * FROM agent_settings WHERE agent_id = ?');
    selectOne.set(db, stmt);
  }
  const row = stmt.get(agentId) as Row | undefined;
  return row ? toRecord(row) : DEFAULTS(agentId);
}

/** Applies a patch (absent keys unchanged, null clears an override); returns the result. */
export function patchAgentSettings(
  db: Db,
  agentId: string,
  patch: AgentSettingsPatch,
  now: number,
): AgentSettingsRecord {
  const next = { ...getAgentSettings(db, agentId), ...patch, agentId };
  db.prepare(
    `INSERT INTO agent_settings (agent_id, display_name, paused, memory_budget_tokens,
       episode_retention_days, transcript_retention_days, updated_at)
     VALUES (@agentId, @displayName, @paused, @memoryBudgetTokens, @episodeRetentionDays,
       @transcriptRetentionDays, @now)
     ON CONFLICT (agent_id) DO UPDATE SET
       display_name = excluded.display_name, paused = excluded.paused,
       memory_budget_tokens = excluded.memory_budget_tokens,
       episode_retention_days = excluded.episode_retention_days,
       transcript_retention_days = excluded.transcript_retention_days,
       updated_at = excluded.updated_at`,
  ).run({ ...next, paused: next.paused ? 1 : 0, now });
  return next;
}
