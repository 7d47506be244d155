import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 013 (forgotten wording)', () => {
  it('keeps the wording when its trash entry is purged, unlinked', () => {
    const db = dbAt(11);
    migrate(db, 13);
    const trash = db
      .prepare(`INSERT INTO trash (agent_id, kind, label, deleted_at) VALUES ('a', 'fact', 'x', 1)`)
      .run().lastInsertRowid;
    db.prepare(
      `INSERT INTO forgotten (agent_id, content, trash_id, created_at) VALUES ('a', 'User is allergic to cats', ?, 1)`,
    ).run(trash);
    db.prepare('DELETE FROM trash WHERE id = ?').run(trash);
    expect(db.prepare('SELECT content, trash_id FROM forgotten').all()).toEqual([
      { content: 'User is allergic to cats', trash_id: null },
    ]);
  });
});
