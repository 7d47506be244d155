import type { AgentSummary } from '../../../shared/api.ts';
import type { Db } from './db.ts';

// GET /agents: one GROUP BY per table, each answered from an index that covers it
// (transcript_agent_created, episodes_agent_conversation_at, pinned_facts_agent_status,
// pending_signals_status), so the cost is an index scan, not a table scan, even with
// hundreds of thousands of rows.

interface Counts {
  pinned: number;
  episodes: number;
  transcript: number;
  pending: number;
  last: number | null;
  name: string | null;
  paused: boolean;
}

export function listAgentSummaries(db: Db): AgentSummary[] {
  const byAgent = new Map<string, Counts>();
  const get = (id: string): Counts => {
    let c = byAgent.get(id);
    if (!c) {
      c = {
        pinned: 0,
        episodes: 0,
        transcript: 0,
        pending: 0,
        last: null,
        name: null,
        paused: false,
      };
      byAgent.set(id, c);
    }
    return c;
  };
  const later = (a: number | null, b: number | null): number | null =>
    a === null ? b : b === null ? a : Math.max(a, b);

  for (const r of db
    .prepare(
      'SELECT agent_id, count(*) AS n, max(created_at) AS last FROM transcript GROUP BY agent_id',
    )
    .all() as { agent_id: string; n: number; last: number | null }[]) {
    const c = get(r.agent_id);
    c.transcript = r.n;
    c.last = later(c.last, r.last);
  }
  for (const r of db
    .prepare(
      'SELECT agent_id, count(*) AS n, max(conversation_at) AS last FROM episodes GROUP BY agent_id',
    )
    .all() as { agent_id: string; n: number; last: number | null }[]) {
    const c = get(r.agent_id);
    c.episodes = r.n;
    c.last = later(c.last, r.last);
  }
  for (const r of db
    .prepare('SELECT agent_id, count(*) AS n FROM pinned_facts GROUP BY agent_id')
    .all() as { agent_id: string; n: number }[]) {
    get(r.agent_id).pinned = r.n;
  }
  for (const r of db
    .prepare(
      "SELECT agent_id, count(*) AS n FROM pending_signals WHERE status = 'pending' GROUP BY agent_id",
    )
    .all() as { agent_id: string; n: number }[]) {
    get(r.agent_id).pending = r.n;
  }
  for (const r of db.prepare('SELECT agent_id FROM identity').all() as { agent_id: string }[]) {
    get(r.agent_id);
  }
  // Controls alone do not make an agent (a paused agent with nothing stored yet still shows).
  for (const r of db.prepare('SELECT agent_id, display_name, paused FROM agent_settings').all() as {
    agent_id: string;
    display_name: string | null;
    paused: number;
  }[]) {
    const c = get(r.agent_id);
    c.name = r.display_name;
    c.paused = r.paused === 1;
  }

  return [...byAgent.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, c]) => ({
      id,
      display_name: c.name,
      paused: c.paused,
      pinned_count: c.pinned,
      episode_count: c.episodes,
      transcript_count: c.transcript,
      pending_count: c.pending,
      last_activity_at: c.last === null ? null : new Date(c.last).toISOString(),
    }));
}
