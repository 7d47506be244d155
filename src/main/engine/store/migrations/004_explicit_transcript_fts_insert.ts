import type { Migration } from '../migrate.ts';

// Transcript rows are added to their FTS5 mirror by the statement that writes them
// (store/transcript.ts), no longer by an AFTER INSERT trigger. A trigger that writes to a
// virtual table makes every INSERT into `transcript` a statement that "may abort" after a
// multi-row write, so SQLite opens a statement journal for each one
// (https://www.sqlite.org/lang_transaction.html#statement_journals), and FTS5 answers every
// savepoint by flushing its pending terms to disk: each inserted row became a segment of its
// own, merged again and again by automerge (perf on a 10k-turn ingest: 52 % of the time in
// sqlite3VtabSavepoint → sqlite3Fts5FlushToDisk). Written by the repository, the terms of a
// whole batch are flushed once, at commit: 10k turns ≈ 3× faster.
//
// Rows that are already indexed stay as they are; delete and update still go through their
// triggers (single statements, one flush each).
export const migration004: Migration = {
  version: 4,
  name: 'explicit_transcript_fts_insert',
  up(db) {
    db.exec(`DROP TRIGGER IF EXISTS transcript_stem_ai;`);
  },
};
