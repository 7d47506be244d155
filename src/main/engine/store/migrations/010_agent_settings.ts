import type { Migration } from '../migrate.ts';

// Per-agent controls (issue 12): a display name, memory paused, and overrides of the global
// token budget and retention settings. A null column means "use the global setting". The
// agent id itself never changes: clients send it in X-Osaurus-Agent-Id.
export const migration010: Migration = {
  version: 10,
  name: 'agent_settings',
  up(db) {
    db.exec(`
      CREATE TABLE agent_settings (
        agent_id TEXT PRIMARY KEY,
        display_name TEXT,
        paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
        memory_budget_tokens INTEGER,
        episode_retention_days INTEGER,
        transcript_retention_days INTEGER,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
