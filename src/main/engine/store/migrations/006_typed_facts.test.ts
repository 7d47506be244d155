import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 006 (typed facts)', () => {
  it('adds nullable typed columns; facts stored before keep working', () => {
    const db = dbAt(5);
    db.prepare(
      `INSERT INTO pinned_facts (agent_id, content, created_at, updated_at)
         VALUES ('a', 'User likes tea', 1, 1)`,
    ).run();
    migrate(db, 6);
    const old = db.prepare('SELECT * FROM pinned_facts').get() as Record<string, unknown>;
    expect(old).toMatchObject({
      content: 'User likes tea',
      subject: null,
      relation: null,
      object: null,
      valid_from: null,
      superseded_at: null,
      conversation_id: null,
      source_ids: null,
    });
    db.prepare(
      `INSERT INTO pinned_facts (agent_id, content, subject, relation, object, valid_from,
           conversation_id, source_ids, created_at, updated_at)
         VALUES ('a', 'User lives in Lisbon', 'user', 'lives_in', 'Lisbon', 5, 'c1', '[3]', 2, 2)`,
    ).run();
    // Still found by full-text search (the FTS triggers of 001 are untouched).
    expect(
      db
        .prepare(`SELECT rowid FROM pinned_stem_fts WHERE pinned_stem_fts MATCH 'lisbon'`)
        .pluck()
        .all(),
    ).toHaveLength(1);
  });

  it('serves lookups by (agent, subject, relation) from the new index', () => {
    const db = dbAt(6);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM pinned_facts
         WHERE agent_id = ? AND subject = ? AND relation = ? AND superseded_at IS NULL`,
      )
      .all('a', 'user', 'lives_in') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('pinned_facts_agent_subject_relation');
  });
});
