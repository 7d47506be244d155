import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion, type Db } from '../migrate.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';

const dbAt = databaseAtVersionPerTest();

const names = (db: Db, type: string) =>
  (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = ? ORDER BY name`).all(type) as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('migration 003 (drop the unstemmed transcript FTS mirror)', () => {
  it('removes transcript_fts, its shadow tables and triggers, and nothing else', () => {
    const db = dbAt(2);
    const insert = db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', ?, 1)`,
    );
    insert.run('I painted a sunrise');
    const tablesBefore = names(db, 'table');
    const triggersBefore = names(db, 'trigger');
    expect(tablesBefore).toContain('transcript_fts');

    migrate(db, 3);
    expect(schemaVersion(db)).toBe(3);
    const tables = names(db, 'table');
    expect(tables.filter((t) => t.startsWith('transcript_fts'))).toEqual([]);
    expect(tables).toEqual(tablesBefore.filter((t) => !t.startsWith('transcript_fts')));
    expect(names(db, 'trigger')).toEqual(
      triggersBefore.filter(
        (t) => !['transcript_ai', 'transcript_ad', 'transcript_au'].includes(t),
      ),
    );
    // The unstemmed episode and fact mirrors stay.
    expect(tables).toEqual(expect.arrayContaining(['episodes_fts', 'pinned_fts']));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('keeps the stemmed mirror in sync on insert, update and delete', () => {
    const db = dbAt(2);
    const insert = db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', ?, 1)`,
    );
    const old = Number(insert.run('I painted a sunrise').lastInsertRowid);
    migrate(db, 3);
    const hits = (q: string) =>
      (
        db
          .prepare(`SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?`)
          .all(q) as { rowid: number }[]
      ).map((r) => r.rowid);
    expect(hits('painting')).toEqual([old]);
    const id = Number(insert.run('we went hiking in the hills').lastInsertRowid);
    expect(hits('hike')).toEqual([id]);
    db.prepare(`UPDATE transcript SET content = 'a quiet evening' WHERE id = ?`).run(id);
    expect(hits('hike')).toEqual([]);
    expect(hits('evenings')).toEqual([id]);
    db.prepare(`DELETE FROM transcript WHERE id = ?`).run(old);
    expect(hits('painting')).toEqual([]);
    // FTS5's own check that the index matches the content table (throws on a mismatch).
    const check = db.prepare(
      `INSERT INTO transcript_stem_fts (transcript_stem_fts) VALUES ('integrity-check')`,
    );
    expect(() => check.run()).not.toThrow();
  });
});
