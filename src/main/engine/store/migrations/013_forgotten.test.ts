import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../../test/helpers/temp-db.ts';
import { migrate } from '../migrate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 013 (forgotten wording)', () => {
  it('keeps the wording when its trash entry is purged, unlinked', () => {
    const t = tempDatabase({ migrate: false });
    cleanups.push(t.cleanup);
    migrate(t.db, 11);
    migrate(t.db, 13);
    const trash = t.db
      .prepare(`INSERT INTO trash (agent_id, kind, label, deleted_at) VALUES ('a', 'fact', 'x', 1)`)
      .run().lastInsertRowid;
    t.db
      .prepare(
        `INSERT INTO forgotten (agent_id, content, trash_id, created_at) VALUES ('a', 'User is allergic to cats', ?, 1)`,
      )
      .run(trash);
    t.db.prepare('DELETE FROM trash WHERE id = ?').run(trash);
    expect(t.db.prepare('SELECT content, trash_id FROM forgotten').all()).toEqual([
      { content: 'User is allergic to cats', trash_id: null },
    ]);
  });
});
