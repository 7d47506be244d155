import type { Migration } from '../migrate.ts';

// Typed facts (DESIGN §6, issue 11): a pinned fact may also be a (subject, relation, object)
// triple with the date it became true, the date a newer statement superseded it, and its
// provenance (the conversation and transcript rows it was read from). All columns are
// nullable: free-text facts, and every fact stored before this migration, keep working
// with them null. The index serves "the user's current lives_in" and supersession lookups.
export const migration006: Migration = {
  version: 6,
  name: 'typed_facts',
  up(db) {
    db.exec(`
      ALTER TABLE pinned_facts ADD COLUMN subject TEXT;
      ALTER TABLE pinned_facts ADD COLUMN relation TEXT;
      ALTER TABLE pinned_facts ADD COLUMN object TEXT;
      ALTER TABLE pinned_facts ADD COLUMN valid_from INTEGER;
      ALTER TABLE pinned_facts ADD COLUMN superseded_at INTEGER;
      ALTER TABLE pinned_facts ADD COLUMN conversation_id TEXT;
      ALTER TABLE pinned_facts ADD COLUMN source_ids TEXT;
      CREATE INDEX pinned_facts_agent_subject_relation
        ON pinned_facts (agent_id, subject, relation);
    `);
  },
};
