import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../../test/helpers/temp-db.ts';
import { migrate } from '../migrate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 011 (memory activity)', () => {
  it('adds the table, content-free by default, and reads one agent newest first by index', () => {
    const t = tempDatabase({ migrate: false });
    cleanups.push(t.cleanup);
    migrate(t.db, 10);
    migrate(t.db, 11);
    t.db
      .prepare(
        `INSERT INTO memory_activity (agent_id, at, conversation_id, protocol, section, tokens, header)
         VALUES ('a', 5, 'c', 'chat', 'none', 0, 'none; reason=gate')`,
      )
      .run();
    expect(t.db.prepare('SELECT sources, lines FROM memory_activity').get()).toEqual({
      sources: '[]',
      lines: null,
    });
    expect(() =>
      t.db
        .prepare(
          `INSERT INTO memory_activity (agent_id, at, conversation_id, protocol, section, tokens, header)
           VALUES ('a', 5, 'c', 'chat', 'none', -1, 'x')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    const plan = t.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM memory_activity WHERE agent_id = ? ORDER BY id DESC LIMIT 5`,
      )
      .all('a') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('memory_activity_agent');
  });
});
