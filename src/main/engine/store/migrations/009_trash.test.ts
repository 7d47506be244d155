import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { latestVersion, migrate, schemaVersion } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 009 (trash)', () => {
  it('adds the trash tables on a database of the version before, keeping its rows', () => {
    const db = dbAt(4);
    db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', 'hi', 1)`,
    ).run();
    migrate(db, 9);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(9);
    expect(db.prepare('SELECT count(*) FROM transcript').pluck().get()).toBe(1);
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'trash%'`)
      .pluck()
      .all();
    expect(tables.sort()).toEqual(['trash', 'trash_rows']);
  });

  it('drops the rows of a purged entry with it', () => {
    const db = dbAt(latestVersion);
    const id = db
      .prepare(`INSERT INTO trash (agent_id, kind, label, deleted_at) VALUES ('a', 'fact', 'x', 1)`)
      .run().lastInsertRowid;
    db.prepare(
      `INSERT INTO trash_rows (trash_id, source_table, row_key, data) VALUES (?, 'pinned_facts', '1', '{}')`,
    ).run(id);
    db.prepare('DELETE FROM trash WHERE id = ?').run(id);
    expect(db.prepare('SELECT count(*) FROM trash_rows').pluck().get()).toBe(0);
  });
});
