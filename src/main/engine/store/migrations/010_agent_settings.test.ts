import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 010 (agent settings)', () => {
  it('adds the table with global defaults as nulls, one row per agent', () => {
    const db = dbAt(9);
    migrate(db, 10);
    db.prepare(`INSERT INTO agent_settings (agent_id, updated_at) VALUES ('a', 1)`).run();
    expect(db.prepare('SELECT * FROM agent_settings').get()).toEqual({
      agent_id: 'a',
      display_name: null,
      paused: 0,
      memory_budget_tokens: null,
      episode_retention_days: null,
      transcript_retention_days: null,
      updated_at: 1,
    });
    expect(() =>
      db.prepare(`INSERT INTO agent_settings (agent_id, updated_at) VALUES ('a', 2)`).run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(`INSERT INTO agent_settings (agent_id, paused, updated_at) VALUES ('b', 2, 2)`)
        .run(),
    ).toThrow(/CHECK/);
  });
});
