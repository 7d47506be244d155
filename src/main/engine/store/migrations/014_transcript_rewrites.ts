import type { Migration } from '../migrate.ts';

// A count of the transcript's rewrites: every row deleted (forget, retention, a conversation
// removed) or whose text changed (a private span scrubbed) adds one, on whichever connection
// did it. The in-memory copy of the transcript's search index (store/transcript-head.ts)
// follows appended rows by id and must be thrown away at once when anything else changed;
// this one row tells it, with a primary-key read per search. Rows restored from the trash
// come back under old ids and count themselves (store/trash.ts).
//
// Only DELETE and UPDATE get triggers: both already run one writing to the FTS5 mirror, so
// this adds no statement journal of its own; an INSERT trigger would give every recorded
// turn one (migration 004 says what that costs).
export const migration014: Migration = {
  version: 14,
  name: 'transcript_rewrites',
  up(db) {
    db.exec(`
      CREATE TABLE transcript_rewrites (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        n INTEGER NOT NULL
      );
      INSERT INTO transcript_rewrites (id, n) VALUES (1, 0);
      CREATE TRIGGER transcript_rewrites_ad AFTER DELETE ON transcript BEGIN
        UPDATE transcript_rewrites SET n = n + 1 WHERE id = 1;
      END;
      CREATE TRIGGER transcript_rewrites_au AFTER UPDATE OF content ON transcript BEGIN
        UPDATE transcript_rewrites SET n = n + 1 WHERE id = 1;
      END;
    `);
  },
};
