// Consolidation through the real server on a fixed clock: Run Now decays, evicts and prunes
// what a user would expect, never touches user-pinned facts, and each run is listed.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsolidationRun, Episode, PinnedFact } from '../src/shared/api.ts';
import { fixedClock } from '../src/main/engine/clock.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function engine() {
  const clock = fixedClock(Date.UTC(2025, 0, 1));
  const h: EngineHarness = await startEngine({ config: { clock } });
  cleanups.push(() => h.stop());
  return { h, clock };
}

const pinned = async (h: EngineHarness) =>
  (await h.api<{ items: PinnedFact[] }>('GET', '/memory/pinned?agent_id=ada&sort=created_at')).body
    .items;

describe('consolidation through the server', () => {
  it('decays, evicts and prunes on Run Now; user-pinned facts stay', async () => {
    const { h, clock } = await engine();
    expect(
      (await h.api('PUT', '/settings', { episodeRetentionDays: 60, salienceFloor: 0.2 })).status,
    ).toBe(200);
    const ingest = await h.api('POST', '/memory/ingest', {
      agent_id: 'ada',
      conversation_id: 'c1',
      session_date: '2025-01-01',
      turns: [{ user: 'I love hiking.', assistant: 'Nice!' }],
    });
    expect(ingest.status).toBe(200);
    const mine = await h.api<PinnedFact>('POST', '/memory/pinned', {
      agent_id: 'ada',
      content: 'User is allergic to penicillin',
      salience: 0.1,
    });
    expect(mine.status).toBe(201);
    const before = (await pinned(h)).find((f) => f.content === 'User loves hiking')!;

    clock.advance(30 * DAY);
    const r1 = await h.api<ConsolidationRun>('POST', '/memory/consolidate', {});
    expect(r1.body.status).toBe('ok');
    expect(r1.body.counts.decayed).toBeGreaterThanOrEqual(2); // the fact and the episode
    const after = (await pinned(h)).find((f) => f.id === before.id)!;
    expect(after.salience).toBeCloseTo(before.salience / 2, 5);
    // a second run the same moment changes nothing
    const r2 = await h.api<ConsolidationRun>('POST', '/memory/consolidate', {});
    expect(r2.body.counts.decayed).toBe(0);
    expect((await pinned(h)).find((f) => f.id === before.id)!.salience).toBeCloseTo(
      after.salience,
      9,
    );

    // 100 days later: the unused fact fell under the floor and is evicted, the episode is
    // past the 60-day retention (both to the trash); the transcript and the user's own fact
    // stay. A dry run first says so and changes nothing.
    clock.advance(70 * DAY);
    const dry = await h.api<{ dry_run: boolean; counts: Record<string, number> }>(
      'POST',
      '/memory/consolidate',
      { dry_run: true },
    );
    expect(dry.body).toMatchObject({
      dry_run: true,
      counts: { evicted: 1, pruned_episodes: 1, pruned_transcript: 0 },
    });
    expect(await pinned(h)).toHaveLength(2);
    const r3 = await h.api<ConsolidationRun>('POST', '/memory/consolidate', {});
    expect(r3.body.counts).toMatchObject({ evicted: 1, pruned_episodes: 1, pruned_transcript: 0 });
    expect((await pinned(h)).map((f) => f.id)).toEqual([mine.body.id]);
    const eps = await h.api<{ items: Episode[] }>('GET', '/memory/episodes?agent_id=ada');
    expect(eps.body.items).toHaveLength(0);
    const transcript = await h.api<{ items: unknown[] }>('GET', '/memory/transcript?agent_id=ada');
    expect(transcript.body.items).toHaveLength(2);
    const runs = await h.api<{ runs: ConsolidationRun[] }>('GET', '/memory/consolidation/runs');
    expect(runs.body.runs.map((r) => r.id)).toEqual([r3.body.id, r2.body.id, r1.body.id]);
  });

  it('never deletes imported history for its old dates (timer and Run Now)', async () => {
    const { h, clock } = await engine();
    const turns = Array.from({ length: 30 }, (_, i) => ({
      user: `Back then I was learning the cello, lesson ${i}.`,
      assistant: 'Keep going!',
    }));
    const ingest = await h.api('POST', '/memory/ingest', {
      agent_id: 'ada',
      conversation_id: 'old',
      session_date: '2022-01-01T10:00:00Z',
      turns,
    });
    expect(ingest.status).toBe(200);
    const count = async () => {
      const t = await h.api<{ total: number }>('GET', '/memory/transcript?agent_id=ada');
      const e = await h.api<{ total: number }>('GET', '/memory/episodes?agent_id=ada');
      return { transcript: t.body.total, episodes: e.body.total };
    };
    const before = await count();
    expect(before.transcript).toBe(60);
    expect(before.episodes).toBeGreaterThan(0);
    const dry = await h.api<{ counts: Record<string, number> }>('POST', '/memory/consolidate', {
      dry_run: true,
    });
    expect(dry.body.counts).toMatchObject({ pruned_episodes: 0, pruned_transcript: 0 });
    await h.api('POST', '/memory/consolidate', {});
    await h.services.consolidator.run('timer');
    expect(await count()).toEqual(before);
    // A year and a day after it was stored, the episode is past retention (to the trash);
    // the transcript stays.
    clock.advance(366 * DAY);
    await h.services.consolidator.run('timer');
    const after = await count();
    expect(after.transcript).toBe(60);
    expect(after.episodes).toBe(0);
  });
});
