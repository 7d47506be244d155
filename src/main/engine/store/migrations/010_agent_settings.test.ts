import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../../test/helpers/temp-db.ts';
import { migrate } from '../migrate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 010 (agent settings)', () => {
  it('adds the table with global defaults as nulls, one row per agent', () => {
    const t = tempDatabase({ migrate: false });
    cleanups.push(t.cleanup);
    migrate(t.db, 9);
    migrate(t.db, 10);
    t.db.prepare(`INSERT INTO agent_settings (agent_id, updated_at) VALUES ('a', 1)`).run();
    expect(t.db.prepare('SELECT * FROM agent_settings').get()).toEqual({
      agent_id: 'a',
      display_name: null,
      paused: 0,
      memory_budget_tokens: null,
      episode_retention_days: null,
      transcript_retention_days: null,
      updated_at: 1,
    });
    expect(() =>
      t.db.prepare(`INSERT INTO agent_settings (agent_id, updated_at) VALUES ('a', 2)`).run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      t.db
        .prepare(`INSERT INTO agent_settings (agent_id, paused, updated_at) VALUES ('b', 2, 2)`)
        .run(),
    ).toThrow(/CHECK/);
  });
});
