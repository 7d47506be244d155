// Delete at every scale, and undo from the trash, through the real server (issue 12): a
// conversation, an agent, a selection and single rows go to the trash and come back byte for
// byte; another agent is never touched; bad input changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeletionResponse, TrashListResponse } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(() => h?.stop());

const rows = (table: string, agentId: string) =>
  h.services.db.prepare(`SELECT * FROM ${table} WHERE agent_id = ? ORDER BY id`).all(agentId);
const snapshot = (agentId: string) => ({
  transcript: rows('transcript', agentId),
  episodes: rows('episodes', agentId),
  pinned_facts: rows('pinned_facts', agentId),
  pending_signals: rows('pending_signals', agentId),
  identity: h.services.db.prepare('SELECT * FROM identity WHERE agent_id = ?').all(agentId),
});

async function ingest(agentId: string, conversationId: string, user: string) {
  const res = await h.api('POST', '/memory/ingest', {
    agent_id: agentId,
    conversation_id: conversationId,
    session_date: '2023-05-01T10:00:00Z',
    turns: [
      { user, assistant: 'Noted.' },
      { user: 'And I love hiking on weekends.', assistant: 'Nice!' },
    ],
  });
  expect(res.status).toBe(200);
}

describe('trash', () => {
  it('deletes a conversation and restores byte-identical rows', async () => {
    await ingest('ada', 'c1', 'I moved to Lisbon in March.');
    await ingest('ada', 'c2', 'I play the cello.');
    await ingest('bob', 'c1', 'I moved to Oslo.');
    const before = snapshot('ada');
    const bob = snapshot('bob');
    expect(before.transcript.length).toBe(8);

    const del = await h.api<DeletionResponse>('DELETE', '/memory/conversations/c1?agent_id=ada');
    expect(del.status).toBe(200);
    expect(del.body.counts.transcript).toBe(4);
    const search = await h.api<{ results: unknown[] }>('POST', '/memory/search', {
      agent_id: 'ada',
      scope: 'transcript',
      query: 'Lisbon',
    });
    expect(search.body.results).toEqual([]);
    expect(snapshot('bob')).toEqual(bob);

    const trash = await h.api<TrashListResponse>('GET', '/memory/trash?agent_id=ada');
    expect(trash.body.items[0]).toMatchObject({ id: del.body.trash_id, kind: 'conversation' });
    const restored = await h.api('POST', `/memory/trash/${del.body.trash_id}/restore`);
    expect(restored.status).toBe(200);
    expect(snapshot('ada')).toEqual(before);
    const again = await h.api<{ results: unknown[] }>('POST', '/memory/search', {
      agent_id: 'ada',
      scope: 'transcript',
      query: 'Lisbon',
    });
    expect(again.body.results.length).toBeGreaterThan(0);
    expect((await h.api<TrashListResponse>('GET', '/memory/trash?agent_id=ada')).body.total).toBe(
      0,
    );
  });

  it('deletes a whole agent and brings it back', async () => {
    await ingest('cleo', 'c1', 'My manager is Priya Raman.');
    await h.api('PUT', '/memory/identity', { agent_id: 'cleo', overrides: ['User is Cleo'] });
    const before = snapshot('cleo');
    const del = await h.api<DeletionResponse>('DELETE', '/agents/cleo');
    expect(del.status).toBe(200);
    const agents = await h.api<{ agents: { id: string }[] }>('GET', '/agents');
    expect(agents.body.agents.map((a) => a.id)).not.toContain('cleo');
    await h.api('POST', `/memory/trash/${del.body.trash_id}/restore`);
    expect(snapshot('cleo')).toEqual(before);
  });

  it('moves a selection as one entry, and single rows too', async () => {
    await ingest('dana', 'c1', 'We adopted a beagle named Biscuit.');
    const t = rows('transcript', 'dana') as { id: number }[];
    const del = await h.api<DeletionResponse>('POST', '/memory/delete', {
      agent_id: 'dana',
      transcript: [t[0]!.id, t[1]!.id],
    });
    expect(del.body.counts).toEqual({ transcript: 2 });
    expect(rows('transcript', 'dana')).toHaveLength(2);
    const one = await h.api<DeletionResponse>(
      'DELETE',
      `/memory/transcript/${t[2]!.id}?agent_id=dana`,
    );
    expect(one.status).toBe(200);
    const trash = await h.api<TrashListResponse>('GET', '/memory/trash?agent_id=dana');
    expect(trash.body.items.map((i) => i.kind)).toEqual(['message', 'selection']);
    for (const item of trash.body.items) {
      await h.api('POST', `/memory/trash/${item.id}/restore`);
    }
    expect(rows('transcript', 'dana')).toHaveLength(4);
  });

  it('answers clear 4xx for bad input and unknown ids, changing nothing', async () => {
    const before = snapshot('ada');
    expect((await h.api('DELETE', '/memory/conversations/c1')).status).toBe(400);
    expect((await h.api('DELETE', '/memory/conversations/nope?agent_id=ada')).status).toBe(404);
    expect((await h.api('DELETE', '/memory/conversations/c1?agent_id=zed')).status).toBe(404);
    expect((await h.api('DELETE', '/agents/nobody')).status).toBe(404);
    expect((await h.api('POST', '/memory/trash/999999/restore')).status).toBe(404);
    expect((await h.api('POST', '/memory/trash/abc/restore')).status).toBe(400);
    expect((await h.api('POST', '/memory/delete', { agent_id: 'ada' })).status).toBe(400);
    expect(
      (await h.api('POST', '/memory/delete', { agent_id: 'ada', transcript: ['x'] })).status,
    ).toBe(400);
    // Ids of another agent are not deleted through this one.
    const bobIds = (rows('transcript', 'bob') as { id: number }[]).map((r) => r.id);
    expect(
      (await h.api('POST', '/memory/delete', { agent_id: 'ada', transcript: bobIds })).status,
    ).toBe(404);
    expect(rows('transcript', 'bob')).toHaveLength(bobIds.length);
    expect(snapshot('ada')).toEqual(before);
  });
});
