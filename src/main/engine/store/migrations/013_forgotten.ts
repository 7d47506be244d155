import type { Migration } from '../migrate.ts';

// Forget means forget (DESIGN §6, issue 12): the wording of a fact the user forgot is kept
// out of every later memory block, also where the same words still stand in a transcript line
// or an episode summary. The fact itself goes to the trash; its wording stays here after the
// trash entry is purged (the link is cleared then), and goes when the fact is restored.
export const migration013: Migration = {
  version: 13,
  name: 'forgotten',
  up(db) {
    db.exec(`
      CREATE TABLE forgotten (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        content TEXT NOT NULL,
        trash_id INTEGER REFERENCES trash (id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX forgotten_agent ON forgotten (agent_id);
      CREATE INDEX forgotten_trash ON forgotten (trash_id);
    `);
  },
};
