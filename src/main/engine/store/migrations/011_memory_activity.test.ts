import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 011 (memory activity)', () => {
  it('adds the table, content-free by default, and reads one agent newest first by index', () => {
    const db = dbAt(10);
    migrate(db, 11);
    db.prepare(
      `INSERT INTO memory_activity (agent_id, at, conversation_id, protocol, section, tokens, header)
         VALUES ('a', 5, 'c', 'chat', 'none', 0, 'none; reason=gate')`,
    ).run();
    expect(db.prepare('SELECT sources, lines FROM memory_activity').get()).toEqual({
      sources: '[]',
      lines: null,
    });
    expect(() =>
      db
        .prepare(
          `INSERT INTO memory_activity (agent_id, at, conversation_id, protocol, section, tokens, header)
           VALUES ('a', 5, 'c', 'chat', 'none', -1, 'x')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM memory_activity WHERE agent_id = ? ORDER BY id DESC LIMIT 5`,
      )
      .all('a') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('memory_activity_agent');
  });
});
