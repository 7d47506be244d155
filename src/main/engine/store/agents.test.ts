import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { listAgentSummaries } from './agents.ts';
import { recordTurn } from './transcript.ts';

const freshDb = databasePerTest();

describe('agent summaries', () => {
  it('counts every kind of memory per agent', () => {
    const d = freshDb();
    recordTurn(d, {
      agentId: 'alice',
      conversationId: 'c',
      messages: [
        { role: 'user', content: 'u', createdAt: Date.UTC(2024, 0, 1) },
        { role: 'assistant', content: 'a', createdAt: Date.UTC(2024, 0, 2) },
      ],
    });
    d.prepare(
      `INSERT INTO episodes (agent_id, summary, conversation_at, created_at, updated_at) VALUES ('alice', 's', ?, 0, 0)`,
    ).run(Date.UTC(2024, 0, 3));
    d.prepare(
      `INSERT INTO pinned_facts (agent_id, content, created_at, updated_at) VALUES ('bob', 'f', 0, 0)`,
    ).run();
    d.prepare(`UPDATE pending_signals SET status = 'processed'`).run();
    recordTurn(d, {
      agentId: 'bob',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'x', createdAt: 5 }],
    });
    expect(listAgentSummaries(d)).toEqual([
      {
        id: 'alice',
        display_name: null,
        paused: false,
        pinned_count: 0,
        episode_count: 1,
        transcript_count: 2,
        pending_count: 0,
        last_activity_at: '2024-01-03T00:00:00.000Z',
      },
      {
        id: 'bob',
        display_name: null,
        paused: false,
        pinned_count: 1,
        episode_count: 0,
        transcript_count: 1,
        pending_count: 1,
        last_activity_at: new Date(5).toISOString(),
      },
    ]);
  });

  it('answers from covering indexes (no table scan)', () => {
    const db = freshDb();
    const plan = (sql: string) =>
      (db.prepare('EXPLAIN QUERY PLAN ' + sql).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(
      plan('SELECT agent_id, count(*), max(created_at) FROM transcript GROUP BY agent_id'),
    ).toMatch(/COVERING INDEX transcript_agent_created/);
    expect(
      plan(
        `SELECT agent_id, count(*) FROM pending_signals WHERE status = 'pending' GROUP BY agent_id`,
      ),
    ).toMatch(/COVERING INDEX pending_signals_status/);
    expect(plan('SELECT agent_id, count(*) FROM pinned_facts GROUP BY agent_id')).toMatch(
      /COVERING INDEX/,
    );
  });

  it('counts 100k transcript rows from indexes, never by reading the tables', () => {
    const db = freshDb();
    const insert = db.prepare(
      `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES (?, 'c', 'user', 'x', ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 100_000; i++) insert.run(`agent-${i % 20}`, i);
    })();
    // Every statement it prepares, checked with EXPLAIN QUERY PLAN: the page that lists agents
    // must not get slower with the size of what they remember, only with how many there are.
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    const agents = listAgentSummaries(db);
    db.prepare = prepare;
    expect(agents).toHaveLength(20);
    expect(agents[0]!.transcript_count).toBe(5000);
    expect(statements.length).toBeGreaterThan(0);
    for (const sql of statements) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
      // A SCAN of a memory table itself (not of an index) reads every row with its content;
      // agent_settings has one row per agent and may be read whole.
      expect(plan, sql).not.toMatch(
        /\bSCAN (transcript|episodes|pinned_facts|pending_signals)(?! USING (COVERING )?INDEX)(;|$)/,
      );
    }
  });
});
