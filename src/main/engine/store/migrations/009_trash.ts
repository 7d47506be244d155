import type { Migration } from '../migrate.ts';

// The trash (DESIGN §8, issue 12): every deletion of memory — forget, prune, evict, a
// conversation, an agent, a selection — moves the rows here first, whole, so they can be
// restored byte for byte for `trashDays` before they are purged. One `trash` row per
// deletion (what the user sees); one `trash_rows` row per deleted database row, holding the
// row's columns as JSON. A big deletion is written in batches, each batch one transaction
// that copies its rows here and deletes them: a crash between batches leaves every row
// either still in place or in the trash, never lost.
export const migration009: Migration = {
  version: 9,
  name: 'trash',
  up(db) {
    db.exec(`
      CREATE TABLE trash (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        label TEXT NOT NULL,
        deleted_at INTEGER NOT NULL,
        item_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX trash_agent_deleted ON trash (agent_id, deleted_at);
      CREATE INDEX trash_deleted ON trash (deleted_at);

      CREATE TABLE trash_rows (
        id INTEGER PRIMARY KEY,
        trash_id INTEGER NOT NULL REFERENCES trash (id) ON DELETE CASCADE,
        source_table TEXT NOT NULL,
        row_key TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX trash_rows_trash ON trash_rows (trash_id, source_table);
    `);
  },
};
