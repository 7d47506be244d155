import { describe, expect, it } from 'vitest';
import { migrate, migrations, schemaVersion } from '../migrate.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 001 (initial schema)', () => {
  it('creates every table of the data model and sets user_version', () => {
    const db = dbAt(0);
    migrate(db, 1);
    expect(schemaVersion(db)).toBe(1);
    const names = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table')`).all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    for (const t of [
      'transcript',
      'transcript_fts',
      'pending_signals',
      'episodes',
      'episodes_fts',
      'pinned_facts',
      'pinned_fts',
      'identity',
      'processing_log',
      'consolidation_runs',
      'vectors',
      'settings',
      'meta',
    ]) {
      expect(names).toContain(t);
    }
  });

  it('keeps the FTS mirror and vectors in sync on insert, update and delete', () => {
    const db = dbAt(0);
    migrate(db, 1);
    const ins = db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)`,
    );
    const id = Number(ins.run('a', 'c', 'user', 'the quick brown fox', 1).lastInsertRowid);
    const match = db.prepare(`SELECT rowid FROM transcript_fts WHERE transcript_fts MATCH ?`);
    expect(match.all('fox')).toHaveLength(1);
    db.prepare(`UPDATE transcript SET content = 'a lazy dog' WHERE id = ?`).run(id);
    expect(match.all('fox')).toHaveLength(0);
    expect(match.all('dog')).toHaveLength(1);
    db.prepare(
      `INSERT INTO vectors (kind, row_id, agent_id, model, dims, embedding, created_at) VALUES ('transcript', ?, 'a', 'm', 1, x'00000000', 1)`,
    ).run(id);
    db.prepare(`DELETE FROM transcript WHERE id = ?`).run(id);
    expect(match.all('dog')).toHaveLength(0);
    expect(db.prepare(`SELECT count(*) AS n FROM vectors`).get()).toEqual({ n: 0 });
  });

  it('uses the agent index for transcript lookups', () => {
    const db = dbAt(0);
    migrate(db, 1);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM transcript WHERE agent_id = ? AND conversation_id = ? ORDER BY id`,
      )
      .all('a', 'c') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('transcript_agent_conversation');
  });
});

describe('migration runner', () => {
  it('lists migrations with strictly increasing versions', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions[0]).toBe(1);
  });

  it('refuses a database from a newer Cairn and changes nothing', () => {
    const db = dbAt(0);
    db.pragma('user_version = 999');
    expect(() => migrate(db)).toThrow(/newer than this Cairn supports/);
    expect(schemaVersion(db)).toBe(999);
  });

  it('is a no-op when already current', () => {
    const db = dbAt(0);
    migrate(db);
    expect(migrate(db)).toBe(0);
  });
});
