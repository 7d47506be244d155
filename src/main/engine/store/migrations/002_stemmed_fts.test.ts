import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 002 (porter-stemmed FTS mirrors)', () => {
  it('backfills rows written before the migration', () => {
    const db = dbAt(1);
    db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', 'I painted a sunrise', 1)`,
    ).run();
    db.prepare(
      `INSERT INTO episodes (agent_id, summary, topics, conversation_at, created_at, updated_at) VALUES ('a', 'We talked about running shoes', '["running"]', 1, 1, 1)`,
    ).run();
    db.prepare(
      `INSERT INTO pinned_facts (agent_id, content, created_at, updated_at) VALUES ('a', 'Has two kids', 1, 1)`,
    ).run();
    migrate(db, 2);
    expect(schemaVersion(db)).toBe(2);
    const hits = (table: string, q: string) =>
      db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).all(q).length;
    expect(hits('transcript_stem_fts', 'painting')).toBe(1);
    expect(hits('episodes_stem_fts', 'run')).toBe(1);
    expect(hits('pinned_stem_fts', 'kid')).toBe(1);
    // the unstemmed mirror does not stem
    expect(hits('transcript_fts', 'painting')).toBe(0);
  });

  it('stays in sync on insert, update and delete', () => {
    const db = dbAt(1);
    migrate(db, 2);
    const id = Number(
      db
        .prepare(
          `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', 'my dogs are barking', 1)`,
        )
        .run().lastInsertRowid,
    );
    const match = db.prepare(
      `SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?`,
    );
    expect(match.all('dog')).toEqual([{ rowid: id }]);
    db.prepare(`UPDATE transcript SET content = 'cats sleeping' WHERE id = ?`).run(id);
    expect(match.all('dog')).toEqual([]);
    expect(match.all('sleep')).toEqual([{ rowid: id }]);
    db.prepare(`DELETE FROM transcript WHERE id = ?`).run(id);
    expect(match.all('sleep')).toEqual([]);

    const fid = Number(
      db
        .prepare(
          `INSERT INTO pinned_facts (agent_id, content, created_at, updated_at) VALUES ('a', 'likes hiking', 1, 1)`,
        )
        .run().lastInsertRowid,
    );
    const pm = db.prepare(`SELECT rowid FROM pinned_stem_fts WHERE pinned_stem_fts MATCH ?`);
    expect(pm.all('hike')).toEqual([{ rowid: fid }]);
    db.prepare(`DELETE FROM pinned_facts WHERE id = ?`).run(fid);
    expect(pm.all('hike')).toEqual([]);
  });

  it('turns on secure-delete for the new tables', () => {
    const db = dbAt(1);
    migrate(db, 2);
    for (const t of ['transcript_stem_fts', 'episodes_stem_fts', 'pinned_stem_fts']) {
      const row = db.prepare(`SELECT v FROM ${t}_config WHERE k = 'secure-delete'`).get() as
        { v: number } | undefined;
      expect(row?.v).toBe(1);
    }
  });
});
