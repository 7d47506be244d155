// Per-agent controls through the real server (issue 12): rename, pause, budget and retention
// per agent; the global settings stay the defaults; bad input changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentControls, AgentsResponse } from '../src/shared/api.ts';
import { fixedClock } from '../src/main/engine/clock.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

const DAY = 86_400_000;
const clock = fixedClock(Date.UTC(2025, 0, 1));
let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ config: { clock } });
});
afterAll(() => h?.stop());

const controls = async (id: string) =>
  (await h.api<{ controls: AgentControls }>('GET', `/agents/${id}`)).body.controls;

describe('per-agent controls', () => {
  it('renames and pauses an agent, and the list says so', async () => {
    await h.api('POST', '/memory/ingest', {
      agent_id: 'coder',
      conversation_id: 'c1',
      turns: [{ user: 'I use Neovim.', assistant: 'Nice.' }],
    });
    expect(await controls('coder')).toEqual({
      display_name: null,
      paused: false,
      memory_budget_tokens: null,
      episode_retention_days: null,
      transcript_retention_days: null,
    });
    const patched = await h.api('PATCH', '/agents/coder', {
      display_name: 'Coding agent',
      paused: true,
    });
    expect(patched.status).toBe(200);
    const list = (await h.api<AgentsResponse>('GET', '/agents')).body.agents;
    expect(list.find((a) => a.id === 'coder')).toMatchObject({
      display_name: 'Coding agent',
      paused: true,
      transcript_count: 2,
    });
    await h.api('PATCH', '/agents/coder', { paused: false, display_name: null });
    expect(await controls('coder')).toMatchObject({ paused: false, display_name: null });
  });

  it('refuses bad values with a 400 and keeps the previous ones', async () => {
    await h.api('PATCH', '/agents/coder', { memory_budget_tokens: 300 });
    for (const bad of [
      { memory_budget_tokens: 5 },
      { paused: 'yes' },
      { episode_retention_days: -1 },
      { colour: 'red' },
      { display_name: '' },
    ]) {
      expect((await h.api('PATCH', '/agents/coder', bad)).status).toBe(400);
    }
    expect((await controls('coder')).memory_budget_tokens).toBe(300);
    expect((await h.api('GET', '/agents/nobody')).status).toBe(404);
  });

  it('a paused agent gets no memory and records nothing; its own budget caps the block', async () => {
    await h.api('POST', '/memory/ingest', {
      agent_id: 'writer',
      conversation_id: 'c1',
      turns: [
        { user: 'My editor is Hana Kim and I live in Lisbon.', assistant: 'Noted.' },
        { user: 'I write crime novels and drink green tea.', assistant: 'Nice.' },
      ],
    });
    const ask = async (conversation: string) => {
      const res = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.token}`,
          'content-type': 'application/json',
          'x-osaurus-agent-id': 'writer',
          'x-osaurus-conversation-id': conversation,
        },
        body: JSON.stringify({
          model: 'm',
          messages: [{ role: 'user', content: 'Where do I live?' }],
        }),
      });
      expect(res.status).toBe(200);
      const sent = h.upstream.chatRequests().at(-1)?.body as { messages: { content: string }[] };
      return { header: res.headers.get('x-cairn-memory') ?? '', sent: sent.messages[0]!.content };
    };
    const transcriptCount = async () =>
      (await h.api<{ total: number }>('GET', '/memory/transcript?agent_id=writer')).body.total;

    const before = await ask('q1');
    expect(before.header).toMatch(/^injected/);
    expect(before.sent).toContain('Lisbon');

    await h.api('PATCH', '/agents/writer', { paused: true });
    await h.idle();
    const rows = await transcriptCount();
    const paused = await ask('q2');
    expect(paused.header).toBe('none; reason=memory-paused');
    expect(paused.sent).toBe('Where do I live?');
    await h.idle();
    expect(await transcriptCount()).toBe(rows);

    await h.api('PATCH', '/agents/writer', { paused: false, memory_budget_tokens: 100 });
    const small = await ask('q3');
    expect(small.header).toMatch(/^injected; tokens=(\d+)/);
    expect(Number(/tokens=(\d+)/.exec(small.header)![1])).toBeLessThanOrEqual(100);
  });

  it("keeps an agent's episodes by its own retention", async () => {
    for (const agent of ['keep', 'short']) {
      await h.api('POST', '/memory/ingest', {
        agent_id: agent,
        conversation_id: 'c1',
        turns: [{ user: 'I play the cello every evening.', assistant: 'Lovely.' }],
      });
    }
    await h.api('PATCH', '/agents/short', { episode_retention_days: 10 });
    clock.advance(20 * DAY);
    const r = await h.api<{ counts: { pruned_episodes: number } }>(
      'POST',
      '/memory/consolidate',
      {},
    );
    expect(r.body.counts.pruned_episodes).toBe(1);
    const episodes = async (agent: string) =>
      (await h.api<{ total: number }>('GET', `/memory/episodes?agent_id=${agent}`)).body.total;
    expect(await episodes('short')).toBe(0);
    expect(await episodes('keep')).toBe(1);
  });

  it('deleting an agent removes its controls with it, and restoring brings them back', async () => {
    const del = await h.api<{ trash_id: number }>('DELETE', '/agents/coder');
    expect(del.status).toBe(200);
    expect((await h.api('GET', '/agents/coder')).status).toBe(404);
    await h.api('POST', `/memory/trash/${del.body.trash_id}/restore`);
    expect((await controls('coder')).memory_budget_tokens).toBe(300);
  });
});
