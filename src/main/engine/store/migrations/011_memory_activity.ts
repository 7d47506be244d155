import type { Migration } from '../migrate.ts';

// What memory did for recent requests (issue 12, item 1): one row per request that carried
// the agent header, newest kept per agent (store/memory-activity.ts prunes on insert).
// Content-free by default: `sources` holds only where each injected line came from
// (`[{scope, id}]`); `lines` holds the lines' text (a JSON array, same order) only when the
// user opted in with the `activityKeepLines` setting, and is NULL otherwise.
export const migration011: Migration = {
  version: 11,
  name: 'memory_activity',
  up(db) {
    db.exec(`
      CREATE TABLE memory_activity (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        conversation_id TEXT NOT NULL,
        protocol TEXT NOT NULL,
        section TEXT NOT NULL,
        tokens INTEGER NOT NULL CHECK (tokens >= 0),
        header TEXT NOT NULL,
        sources TEXT NOT NULL DEFAULT '[]',
        lines TEXT
      );
      CREATE INDEX memory_activity_agent ON memory_activity (agent_id, id);
    `);
  },
};
