// Each consolidation step on a real encrypted database with a fixed clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { fixedClock } from '../clock.ts';
import { silentLogger } from '../logger.ts';
import { createSettingsService } from '../settings-service.ts';
import { listRuns } from '../store/consolidation.ts';
import { getEpisode } from '../store/episodes.ts';
import type { Db } from '../store/db.ts';
import { getPinned } from '../store/pinned.ts';
import { listProcessingLog } from '../store/processing-log.ts';
import { recordTurn } from '../store/transcript.ts';
import { listTrash, restoreTrashEntry } from '../store/trash.ts';
import type { VectorService } from '../services.ts';
import { createDeletionService } from './deletion.ts';
import { createConsolidator, DAY_MS, similarPairs } from './consolidator.ts';

const T0 = Date.UTC(2025, 0, 1);
let db: Db;
let cleanup: () => void;
const stops: (() => void)[] = [];
beforeEach(() => ({ db, cleanup } = tempDatabase()));
afterEach(() => {
  stops.splice(0).forEach((s) => s());
  cleanup();
});

function setup(opts: { catchUpDelayMs?: number } = {}) {
  const clock = fixedClock(T0);
  const settings = createSettingsService({ db, logger: silentLogger });
  const removed: string[] = [];
  const vectors = {
    remove: (kind: string, id: number) => removed.push(`${kind}:${id}`),
  } as unknown as VectorService;
  const deletion = createDeletionService({
    db,
    vectors,
    logger: silentLogger,
    clock,
    yieldBetweenBatches: async () => {},
  });
  const c = createConsolidator({
    db,
    settings,
    vectors,
    deletion,
    logger: silentLogger,
    clock,
    ...opts,
  });
  stops.push(() => c.stopTimer());
  return { c, clock, settings, removed };
}

function episode(agent: string, summary: string, topics: string[], at: number, salience = 0.8) {
  return addEpisode(db, { agentId: agent, summary, topics, salience }, at);
}

function episodeStoredAt(agent: string, summary: string, conversationAt: number, storedAt: number) {
  return addEpisode(db, { agentId: agent, summary, salience: 0.8, conversationAt }, storedAt);
}

function fact(agent: string, content: string, salience: number, at: number, pinnedByUser = false) {
  return addFact(db, { agentId: agent, content, salience, pinnedByUser }, at);
}

describe('consolidator', () => {
  it('decays salience by the time elapsed since the last decay, never compounding', async () => {
    const { c, clock } = setup();
    const e = episode('a', 'Trip planning', ['travel'], T0, 0.8);
    const f = fact('a', 'User likes tea', 0.6, T0);
    const u = fact('a', 'User is Ada', 0.9, T0, true);
    clock.advance(30 * DAY_MS);
    const r1 = await c.run('manual');
    expect(r1.status).toBe('ok');
    expect(r1.counts.decayed).toBe(2); // the user-pinned fact keeps its salience
    expect(getEpisode(db, 'a', e)!.salience).toBeCloseTo(0.4);
    expect(getPinned(db, 'a', f)!.salience).toBeCloseTo(0.3);
    expect(getPinned(db, 'a', u)!.salience).toBeCloseTo(0.9);
    // two more runs the same day: 12 h later in total → decayed once by 12 h, not twice by 30 days
    clock.advance(6 * 3_600_000);
    await c.run('manual');
    clock.advance(6 * 3_600_000);
    await c.run('manual');
    expect(getEpisode(db, 'a', e)!.salience).toBeCloseTo(0.4 * Math.pow(0.5, 0.5 / 30), 6);
  });

  it('merges near-duplicate episodes of the same agent and repoints facts', async () => {
    const { c, removed } = setup();
    const a = episode(
      'a',
      'We planned the Lisbon trip for May with flights and hotel',
      ['travel'],
      T0,
      0.5,
    );
    const b = episode(
      'a',
      'We planned the Lisbon trip for May with flights and hotel.',
      ['travel', 'lisbon'],
      T0 + 1,
      0.9,
    );
    const other = episode(
      'b',
      'We planned the Lisbon trip for May with flights and hotel',
      ['travel'],
      T0,
    );
    const different = episode('a', 'Discussed the garden and tomatoes', ['garden'], T0);
    const f = addFact(
      db,
      { agentId: 'a', content: 'User flies to Lisbon', sourceEpisodeId: b },
      T0,
    );
    const r = await c.run('manual');
    expect(r.counts.merged).toBe(1);
    expect(getEpisode(db, 'a', b)).toBeNull();
    const kept = getEpisode(db, 'a', a)!;
    expect(kept.salience).toBe(0.9);
    expect(kept.topics).toEqual(['travel', 'lisbon']);
    expect(getPinned(db, 'a', f)!.source_episode_id).toBe(a);
    expect(getEpisode(db, 'b', other)).not.toBeNull();
    expect(getEpisode(db, 'a', different)).not.toBeNull();
    expect(removed).toContain(`episode:${b}`);
    // the deleted episode's FTS row is gone too
    const fts = db
      .prepare(`SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH 'lisbon'`)
      .all() as { rowid: number }[];
    expect(fts.map((x) => x.rowid).sort()).toEqual([a, other].sort());
  });

  it('promotes facts that overlap three recent episodes', async () => {
    const { c, clock } = setup();
    clock.set(T0 + 40 * DAY_MS);
    const now = clock.now();
    const f = fact('a', 'User plays tennis on Saturdays', 0.5, now);
    const g = fact('a', 'User likes tea', 0.5, now);
    episode('a', 'Talked about tennis practice on Saturdays', [], now - DAY_MS);
    episode('a', 'Tennis match plans for Saturdays', [], now - 2 * DAY_MS);
    episode('a', 'Saturdays tennis with friends', ['tennis'], now - 3 * DAY_MS);
    episode('a', 'Old: tennis on Saturdays', [], now - 35 * DAY_MS); // not recent
    episode('b', 'tennis Saturdays tennis', [], now); // another agent
    const r = await c.run('manual');
    expect(r.counts.promoted).toBe(1);
    expect(getPinned(db, 'a', f)!.salience).toBeCloseTo(0.7);
    expect(getPinned(db, 'a', g)!.salience).toBe(0.5);
    const again = await c.run('manual');
    expect(again.counts.promoted).toBe(0);
  });

  it('evicts low-salience unused facts but never user-pinned ones', async () => {
    const { c, clock, settings, removed } = setup();
    settings.update({ salienceFloor: 0.2 });
    const low = fact('a', 'User once mentioned a cat', 0.1, T0);
    const lowPinned = fact('a', 'User is Ada', 0.05, T0, true);
    const lowRecent = fact('a', 'User has a meeting', 0.1, T0 + 20 * DAY_MS);
    const high = fact('a', 'User likes tea', 0.9, T0);
    db.prepare('UPDATE pinned_facts SET last_decay_at = ? ').run(T0 + 31 * DAY_MS);
    clock.set(T0 + 31 * DAY_MS);
    const r = await c.run('manual');
    expect(r.counts.evicted).toBe(1);
    expect(getPinned(db, 'a', low)).toBeNull();
    expect(getPinned(db, 'a', lowPinned)).not.toBeNull();
    expect(getPinned(db, 'a', lowRecent)).not.toBeNull();
    expect(getPinned(db, 'a', high)).not.toBeNull();
    expect(removed).toEqual([`pinned:${low}`]);
  });

  it('prunes episodes by when they were stored, never by their dates, into the trash', async () => {
    const { c, clock, settings } = setup();
    settings.update({ episodeRetentionDays: 10 });
    // Stored at T0; the second one is imported history dated three years earlier.
    const old = episode('a', 'Old chat', [], T0);
    const imported = episodeStoredAt('a', 'Imported chat', T0 - 3 * 365 * DAY_MS, T0 + 15 * DAY_MS);
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'old', createdAt: T0 - 3 * 365 * DAY_MS }],
      now: T0,
    });
    clock.set(T0 + 20 * DAY_MS);
    settings.update({ episodeRetentionDays: 0 });
    expect((await c.run('manual')).counts.pruned_episodes).toBe(0);
    settings.update({ episodeRetentionDays: 10 });
    expect(await c.dryRun()).toMatchObject({ pruned_episodes: 1, pruned_transcript: 0 });
    expect(getEpisode(db, 'a', old)).not.toBeNull(); // a dry run deletes nothing
    const r = await c.run('manual');
    expect(r.counts).toMatchObject({ pruned_episodes: 1, pruned_transcript: 0 });
    expect(getEpisode(db, 'a', old)).toBeNull();
    expect(getEpisode(db, 'a', imported)).not.toBeNull();
    // The transcript is the user's record: kept unless a transcript retention is set.
    expect(db.prepare('SELECT content FROM transcript').pluck().all()).toEqual(['old']);
    const trash = listTrash(db, { limit: 10, offset: 0 });
    expect(trash.items).toMatchObject([{ kind: 'prune', counts: { episodes: 1 } }]);
    restoreTrashEntry(db, trash.items[0]!.id);
    expect(getEpisode(db, 'a', old)).not.toBeNull();

    settings.update({ transcriptRetentionDays: 30 });
    expect((await c.run('manual')).counts.pruned_transcript).toBe(1);
    expect(db.prepare('SELECT count(*) FROM transcript').pluck().get()).toBe(0);
  });

  it('purges trash entries older than trashDays', async () => {
    const { c, clock, settings } = setup();
    settings.update({ trashDays: 7 });
    const id = fact('a', 'User likes chess', 0.05, T0);
    clock.set(T0 + 40 * DAY_MS);
    expect((await c.run('manual')).counts.evicted).toBe(1);
    expect(getPinned(db, 'a', id)).toBeNull();
    expect(listTrash(db, { limit: 10, offset: 0 }).total).toBe(1);
    clock.advance(8 * DAY_MS);
    await c.run('manual');
    expect(listTrash(db, { limit: 10, offset: 0 }).total).toBe(0);
  });

  it('scopes a run to one agent, stores the run and logs it', async () => {
    const { c, clock } = setup();
    const ea = episode('a', 'A chat', [], T0, 0.8);
    const eb = episode('b', 'B chat', [], T0, 0.8);
    clock.advance(30 * DAY_MS);
    const r = await c.run('manual', 'a');
    expect(r).toMatchObject({ trigger: 'manual', agent_id: 'a', status: 'ok' });
    expect(getEpisode(db, 'a', ea)!.salience).toBeCloseTo(0.4);
    expect(getEpisode(db, 'b', eb)!.salience).toBeCloseTo(0.8);
    const runs = listRuns(db, 10);
    expect(runs[0]!.snapshot).toEqual({ pinned: 0, episodes: 1, avg_salience: 0 });
    expect(listProcessingLog(db, { limit: 5 })[0]).toMatchObject({
      kind: 'consolidate',
      status: 'ok',
    });
  });

  it('catches up an overdue timer run at start and re-arms after interval changes', async () => {
    const { c, clock, settings } = setup({ catchUpDelayMs: 20 });
    db.prepare(
      `INSERT INTO consolidation_runs (trigger, agent_id, started_at, finished_at, status) VALUES ('timer', NULL, ?, ?, 'ok')`,
    ).run(T0 - 2 * DAY_MS, T0 - 2 * DAY_MS);
    c.startTimer();
    const deadline = Date.now() + 3000;
    while (c.nextRunAt() !== clock.now() + 24 * 3_600_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const runs = listRuns(db, 10);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ trigger: 'timer', status: 'ok' });
    // next run one interval after the catch-up
    expect(c.nextRunAt()).toBe(clock.now() + 24 * 3_600_000);
    settings.update({ consolidationIntervalHours: 2 });
    expect(c.nextRunAt()).toBe(clock.now() + 2 * 3_600_000);
    c.stopTimer();
    expect(c.nextRunAt()).toBeNull();
  });
});

describe('similarPairs', () => {
  it('finds exactly the pairs at or above the threshold', () => {
    const s = (t: string) => new Set(t.split(' '));
    const sets = [
      s('a b c d e f g h i j'),
      s('a b c d e f g h i j k'),
      s('a b c d e f g h x y'),
      s('k l m'),
      s('k l m'),
    ];
    expect(similarPairs(sets, 0.9)).toEqual([
      [0, 1],
      [3, 4],
    ]);
  });
});
