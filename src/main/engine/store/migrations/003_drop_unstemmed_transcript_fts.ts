import type { Migration } from '../migrate.ts';

// Drops the unstemmed transcript mirror of 001 and its triggers. Since 002 every transcript
// search runs on the porter-stemmed `transcript_stem_fts`; the unstemmed one was only kept up
// to date, and doing so on every insert cost as much again as the index that is used
// (inserting 20k rows: ≈ 600 ms with both, ≈ 330 ms with one), which kept ingest below its
// target. The FTS5 shadow tables go with the virtual table
// (https://www.sqlite.org/fts5.html#fts5_table_creation_and_initialization). The unstemmed
// episode and fact mirrors are small and stay.
export const migration003: Migration = {
  version: 3,
  name: 'drop_unstemmed_transcript_fts',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS transcript_ai;
      DROP TRIGGER IF EXISTS transcript_ad;
      DROP TRIGGER IF EXISTS transcript_au;
      DROP TABLE IF EXISTS transcript_fts;
    `);
  },
};
