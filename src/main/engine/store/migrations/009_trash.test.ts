import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../../test/helpers/temp-db.ts';
import { migrate, schemaVersion } from '../migrate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 009 (trash)', () => {
  it('adds the trash tables on a database of the version before, keeping its rows', () => {
    const t = tempDatabase({ migrate: false });
    cleanups.push(t.cleanup);
    migrate(t.db, 4);
    t.db
      .prepare(
        `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', 'hi', 1)`,
      )
      .run();
    migrate(t.db, 9);
    expect(schemaVersion(t.db)).toBeGreaterThanOrEqual(9);
    expect(t.db.prepare('SELECT count(*) FROM transcript').pluck().get()).toBe(1);
    const tables = t.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'trash%'`)
      .pluck()
      .all();
    expect(tables.sort()).toEqual(['trash', 'trash_rows']);
  });

  it('drops the rows of a purged entry with it', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    const id = t.db
      .prepare(`INSERT INTO trash (agent_id, kind, label, deleted_at) VALUES ('a', 'fact', 'x', 1)`)
      .run().lastInsertRowid;
    t.db
      .prepare(
        `INSERT INTO trash_rows (trash_id, source_table, row_key, data) VALUES (?, 'pinned_facts', '1', '{}')`,
      )
      .run(id);
    t.db.prepare('DELETE FROM trash WHERE id = ?').run(id);
    expect(t.db.prepare('SELECT count(*) FROM trash_rows').pluck().get()).toBe(0);
  });
});
