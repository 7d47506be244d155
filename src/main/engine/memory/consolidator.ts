// Consolidation (DESIGN §8), one transaction per step, counts reported and stored:
//
// - decay:   salience × 0.5^(Δdays/30), Δ measured from each row's last_decay_at (set when
//            the row is created, decayed, or its salience is set by hand). Two runs on the
//            same day therefore decay once in total by the elapsed time, never compounding.
//            User-pinned facts keep the salience the user gave them.
// - merge:   episodes of one agent whose word sets (summary + topics) have Jaccard ≥ 0.9 are
//            merged into the oldest: lists unioned, max salience, facts repointed.
// - promote: an active fact "overlaps" a recent episode (conversation in the last 30 days)
//            when the episode's text holds ≥ 60% of the fact's content words (at least 2; all
//            of them for a one-word fact). With ≥ 3 overlapping episodes the fact's salience
//            is raised to 0.6 + 0.1 × (overlaps − 2), capped at 1 — a target, not an
//            increment, so re-running the same day does not promote twice.
// - evict:   facts below `salienceFloor`, unused (last_used, else created_at) for 30+ days,
//            never user-pinned, are moved to the trash.
// - prune:   episodes stored more than `episodeRetentionDays` ago (by when Cairn wrote them,
//            never by the dates inside imported history; 0 = keep), and transcript messages
//            older than `transcriptRetentionDays` only when the user set one (default keep),
//            are moved to the trash; expired trash entries are purged.
//
// Evict and prune go through the trash (memory/deletion.ts): nothing disappears without a
// way back for `trashDays`. A dry run computes every step's counts inside a transaction that
// is rolled back, and deletes nothing. The timer runs every `consolidationIntervalHours` after
// the last full run (persisted in consolidation_runs), catches up shortly after start-up when
// overdue, and is re-armed when the setting changes.
import { inTransaction } from '../store/transaction.ts';
import type { ConsolidationCounts, ConsolidationRun } from '../../../shared/api.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { ConsolidatorService, SettingsService, VectorService } from '../services.ts';
import {
  activeFacts,
  closeStaleRuns,
  decayEpisodes,
  decayFacts,
  episodesForMerge,
  factsToEvict,
  finishRun,
  insertRun,
  lastFullRunAt,
  listMemoryAgents,
  memorySnapshot,
  mergeEpisodeInto,
  episodesToPrune,
  pruneBookkeeping,
  transcriptToPrune,
  recentEpisodeTexts,
  setFactDecay,
  zeroCounts,
  type MergeEpisode,
  type RunRecord,
} from '../store/consolidation.ts';
import { getAgentSettings } from '../store/agent-settings.ts';
import { getEpisode } from '../store/episodes.ts';
import { getMeta, setMeta } from '../store/meta.ts';
import type { Db } from '../store/db.ts';
import { logProcessing, pruneProcessingLog } from '../store/processing-log.ts';
import type { DeletionService } from './deletion.ts';
import { jaccard, STOP_WORDS, words } from '../text/text.ts';

export const DAY_MS = 86_400_000;
export const HALF_LIFE_DAYS = 30;
export const MERGE_JACCARD = 0.9;
export const PROMOTE_MIN_EPISODES = 3;
export const PROMOTE_WINDOW_DAYS = 30;
export const PROMOTE_WORD_OVERLAP = 0.6;
export const EVICT_UNUSED_DAYS = 30;
const BOOKKEEPING_DAYS = 90;
const TIMER_SINCE_KEY = 'consolidation.timer_since';

export interface ConsolidatorOptions {
  db: Db;
  settings: SettingsService;
  vectors: VectorService | null;
  /** Where evicted and pruned rows go (the trash). */
  deletion: DeletionService;
  logger: Logger;
  clock: Clock;
  /** Delay of an overdue catch-up run after startTimer() (default 60 s: not during start-up). */
  catchUpDelayMs?: number;
}

export function toRunDto(r: RunRecord): ConsolidationRun {
  return {
    id: r.id,
    trigger: r.trigger,
    agent_id: r.agent_id,
    started_at: new Date(r.started_at).toISOString(),
    finished_at: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
    status: r.status,
    counts: r.counts,
    error: r.error,
  };
}

function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) if (!STOP_WORDS.has(w) && w.length > 1) out.add(w);
  return out;
}

/**
 * Pairs of near-duplicate sets (Jaccard ≥ threshold) without comparing every pair: two sets
 * that similar must share a token among the first |A| − ⌈t·|A|⌉ + 1 tokens of each in a
 * global rarest-first order (prefix filtering), and their sizes must be within a factor t.
 * `visit(i)` processes set i against the sets before it, so a caller can pause between.
 */
function pairFinder(sets: Set<string>[], threshold: number) {
  const freq = new Map<string, number>();
  for (const s of sets) for (const w of s) freq.set(w, (freq.get(w) ?? 0) + 1);
  const index = new Map<string, number[]>();
  const empties: number[] = [];
  const pairs: [number, number][] = [];
  const visit = (i: number): void => {
    const set = sets[i]!;
    const tokens = [...set].sort(
      (a, b) => freq.get(a)! - freq.get(b)! || (a < b ? -1 : a > b ? 1 : 0),
    );
    const size = tokens.length;
    if (size === 0) {
      // Empty sets are only similar to each other; they have no prefix token to meet on.
      for (const j of empties) pairs.push([j, i]);
      empties.push(i);
      return;
    }
    const prefix = size - Math.ceil(threshold * size) + 1;
    const seen = new Set<number>();
    for (const w of tokens.slice(0, prefix)) {
      for (const j of index.get(w) ?? []) {
        if (seen.has(j)) continue;
        seen.add(j);
        const other = sets[j]!;
        if (Math.min(size, other.size) < threshold * Math.max(size, other.size)) continue;
        if (jaccard(set, other) >= threshold) pairs.push([j, i]);
      }
      const list = index.get(w);
      if (list) list.push(i);
      else index.set(w, [i]);
    }
  };
  return { visit, pairs };
}

export function similarPairs(sets: Set<string>[], threshold: number): [number, number][] {
  const f = pairFinder(sets, threshold);
  for (let i = 0; i < sets.length; i++) f.visit(i);
  return f.pairs;
}

/** The same, giving the event loop a turn every `chunk` sets (large memories). */
export async function similarPairsAsync(
  sets: Set<string>[],
  threshold: number,
  chunk = 200,
): Promise<[number, number][]> {
  const f = pairFinder(sets, threshold);
  for (let i = 0; i < sets.length; i++) {
    f.visit(i);
    if (i % chunk === chunk - 1) await yieldToEventLoop();
  }
  return f.pairs;
}

const union = (a: string[], b: string[], max: number) => {
  const out = [...a];
  const seen = new Set(a.map((x) => x.toLowerCase()));
  for (const x of b) {
    if (out.length >= max) break;
    if (!seen.has(x.toLowerCase())) {
      seen.add(x.toLowerCase());
      out.push(x);
    }
  }
  return out;
};

export function createConsolidator(
  options: ConsolidatorOptions,
): ConsolidatorService & { startTimer(): void; stopTimer(): void; nextRunAt(): number | null } {
  const { db, settings, vectors, clock, deletion } = options;
  const log = options.logger.child('consolidator');
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let nextAt: number | null = null;
  let unsubscribe: (() => void) | null = null;

  const removeVectors = (kind: 'episode' | 'pinned' | 'transcript', ids: number[]) => {
    if (!vectors) return;
    for (const id of ids) {
      try {
        vectors.remove(kind, id);
      } catch (err) {
        log.warn('removing a vector failed', { err: (err as Error).message });
      }
    }
  };

  function stepDecay(agents: string[], now: number): number {
    return inTransaction(db, () =>
      agents.reduce(
        (n, agentId) =>
          n +
          decayEpisodes(db, agentId, now, HALF_LIFE_DAYS) +
          decayFacts(db, agentId, now, HALF_LIFE_DAYS),
        0,
      ),
    );
  }

  /**
   * Near-duplicate detection runs outside the transaction, yielding to the event loop; the
   * merges are then applied in one transaction, skipping episodes deleted meanwhile.
   */
  type MergePlan = { agentId: string; keep: MergeEpisode; removeIds: number[] };

  /** Which episodes fold into which (read only; the similarity scan yields as it goes). */
  async function planMerge(agents: string[]): Promise<MergePlan[]> {
    const plans: MergePlan[] = [];
    for (const agentId of agents) {
      const eps = episodesForMerge(db, agentId);
      if (eps.length < 2) continue;
      const sets = eps.map((e) => contentWords([e.summary, ...e.topics].join(' ')));
      const pairs = await similarPairsAsync(sets, MERGE_JACCARD);
      if (pairs.length === 0) continue;
      // Union-find: a cluster of near-duplicates folds into its oldest episode.
      const parent = eps.map((_, i) => i);
      const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
      for (const [a, b] of pairs) {
        const ra = find(a);
        const rb = find(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
      const clusters = new Map<number, number[]>();
      eps.forEach((_, i) => {
        const root = find(i);
        if (root !== i) clusters.set(root, [...(clusters.get(root) ?? []), i]);
      });
      for (const [root, members] of clusters) {
        const keep = { ...eps[root]! };
        for (const i of members) {
          const e = eps[i]!;
          keep.topics = union(keep.topics, e.topics, 50);
          keep.entities = union(keep.entities, e.entities, 50);
          keep.decisions = union(keep.decisions, e.decisions, 50);
          keep.action_items = union(keep.action_items, e.action_items, 50);
          keep.salience = Math.max(keep.salience, e.salience);
          keep.last_used =
            keep.last_used === null ? e.last_used : Math.max(keep.last_used, e.last_used ?? 0);
          keep.conversation_at = Math.max(keep.conversation_at, e.conversation_at);
        }
        plans.push({ agentId, keep, removeIds: members.map((i) => eps[i]!.id) });
      }
    }
    return plans;
  }

  function applyMerge(plans: MergePlan[], now: number): { count: number; removed: number[] } {
    return inTransaction(db, () => {
      const removed: number[] = [];
      for (const plan of plans) {
        if (!getEpisode(db, plan.agentId, plan.keep.id)) continue;
        for (const id of plan.removeIds) {
          if (!getEpisode(db, plan.agentId, id)) continue;
          mergeEpisodeInto(db, plan.agentId, plan.keep, id, now);
          removed.push(id);
        }
      }
      return { count: removed.length, removed };
    });
  }

  function stepPromote(agents: string[], now: number): number {
    return inTransaction(db, () => {
      let n = 0;
      const since = now - PROMOTE_WINDOW_DAYS * DAY_MS;
      for (const agentId of agents) {
        const recent = recentEpisodeTexts(db, agentId, since);
        if (recent.length < PROMOTE_MIN_EPISODES) continue;
        // Inverted index word → recent episodes holding it: the cost is the postings of a
        // fact's words, not facts × episodes.
        const postings = new Map<string, number[]>();
        recent.forEach((e, i) => {
          for (const w of contentWords(e.text)) {
            const list = postings.get(w);
            if (list) list.push(i);
            else postings.set(w, [i]);
          }
        });
        for (const f of activeFacts(db, agentId)) {
          const fw = contentWords(f.content);
          // "User" is the subject of nearly every fact: it says nothing about the topic.
          fw.delete('user');
          if (fw.size === 0) continue;
          const need = fw.size === 1 ? 1 : Math.max(2, Math.ceil(PROMOTE_WORD_OVERLAP * fw.size));
          const shared = new Map<number, number>();
          let overlaps = 0;
          for (const w of fw) {
            for (const i of postings.get(w) ?? []) {
              const n = (shared.get(i) ?? 0) + 1;
              shared.set(i, n);
              if (n === need) overlaps++;
            }
          }
          if (overlaps < PROMOTE_MIN_EPISODES) continue;
          const target = Math.min(1, 0.6 + 0.1 * (overlaps - (PROMOTE_MIN_EPISODES - 1)));
          if (target <= f.salience + 1e-9) continue;
          setFactDecay(db, agentId, f.id, target, now);
          n++;
        }
      }
      return n;
    });
  }

  /** Facts to evict, per agent. */
  function evictSelection(agents: string[], now: number): Map<string, number[]> {
    const floor = settings.get().salienceFloor;
    const out = new Map<string, number[]>();
    for (const agentId of agents) {
      const ids = factsToEvict(db, agentId, floor, now - EVICT_UNUSED_DAYS * DAY_MS);
      if (ids.length > 0) out.set(agentId, ids);
    }
    return out;
  }

  /** Episodes and transcript rows to prune, per agent (retention settings; 0 = keep). */
  function pruneSelection(
    agents: string[],
    now: number,
  ): Map<string, { episodes: number[]; transcript: number[] }> {
    const global = settings.get();
    const out = new Map<string, { episodes: number[]; transcript: number[] }>();
    for (const agentId of agents) {
      // An agent's own retention (its controls) wins over the global setting.
      const own = getAgentSettings(db, agentId);
      const episodeRetentionDays = own.episodeRetentionDays ?? global.episodeRetentionDays;
      const transcriptRetentionDays = own.transcriptRetentionDays ?? global.transcriptRetentionDays;
      const episodes =
        episodeRetentionDays > 0
          ? episodesToPrune(db, agentId, now - episodeRetentionDays * DAY_MS)
          : [];
      const transcript =
        transcriptRetentionDays > 0
          ? transcriptToPrune(db, agentId, now - transcriptRetentionDays * DAY_MS)
          : [];
      if (episodes.length + transcript.length > 0) out.set(agentId, { episodes, transcript });
    }
    return out;
  }

  async function stepEvict(agents: string[], now: number): Promise<number> {
    let n = 0;
    for (const [agentId, ids] of evictSelection(agents, now)) {
      const r = await deletion.trash(agentId, 'evict', 'Facts evicted by consolidation', {
        pinned_facts: ids,
      });
      n += r?.counts.pinned_facts ?? 0;
    }
    return n;
  }

  async function stepPrune(
    agents: string[],
    now: number,
  ): Promise<{ episodes: number; transcript: number }> {
    let episodes = 0;
    let transcript = 0;
    for (const [agentId, sel] of pruneSelection(agents, now)) {
      const r = await deletion.trash(agentId, 'prune', 'Pruned by retention', sel);
      episodes += r?.counts.episodes ?? 0;
      transcript += r?.counts.transcript ?? 0;
    }
    inTransaction(db, () => {
      for (const agentId of agents) pruneBookkeeping(db, agentId, now - BOOKKEEPING_DAYS * DAY_MS);
      pruneProcessingLog(db, now - BOOKKEEPING_DAYS * DAY_MS);
    });
    deletion.purgeExpired(settings.get().trashDays);
    return { episodes, transcript };
  }

  /**
   * What a run would change, step by step, without changing anything: decay, merge and
   * promote run inside a transaction that is rolled back (synchronously, so no other write
   * can land inside it); evict and prune only select.
   */
  async function dryRun(agentId?: string): Promise<ConsolidationCounts> {
    const agents = agentId === undefined ? listMemoryAgents(db) : [agentId];
    const now = clock.now();
    const plans = await planMerge(agents);
    const counts: ConsolidationCounts = zeroCounts();
    const rollback = new Error('dry run');
    try {
      inTransaction(db, () => {
        counts.decayed = stepDecay(agents, now);
        counts.merged = applyMerge(plans, now).count;
        counts.promoted = stepPromote(agents, now);
        for (const ids of evictSelection(agents, now).values()) counts.evicted += ids.length;
        for (const sel of pruneSelection(agents, now).values()) {
          counts.pruned_episodes += sel.episodes.length;
          counts.pruned_transcript += sel.transcript.length;
        }
        throw rollback;
      });
    } catch (err) {
      if (err !== rollback) throw err;
    }
    return counts;
  }

  async function runOnce(trigger: 'timer' | 'manual', agentId?: string): Promise<ConsolidationRun> {
    const started = clock.now();
    const t0 = performance.now();
    const runId = insertRun(db, trigger, agentId ?? null, started);
    const counts: ConsolidationCounts = zeroCounts();
    let error: string | null = null;
    try {
      const agents = agentId === undefined ? listMemoryAgents(db) : [agentId];
      const now = clock.now();
      // Each step is one transaction; between steps the event loop gets a turn.
      const step = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
        const s0 = performance.now();
        const out = await fn();
        log.debug('consolidation step', { step: name, ms: Math.round(performance.now() - s0) });
        await yieldToEventLoop();
        return out;
      };
      counts.decayed = await step('decay', () => stepDecay(agents, now));
      const merged = await step('merge', async () => applyMerge(await planMerge(agents), now));
      counts.merged = merged.count;
      removeVectors('episode', merged.removed);
      counts.promoted = await step('promote', () => stepPromote(agents, now));
      counts.evicted = await step('evict', () => stepEvict(agents, now));
      const pruned = await step('prune', () => stepPrune(agents, now));
      counts.pruned_episodes = pruned.episodes;
      counts.pruned_transcript = pruned.transcript;
    } catch (err) {
      error = `${(err as Error).name}: ${(err as Error).message}`;
      log.error('consolidation failed', { err });
    }
    const finished = clock.now();
    const run = finishRun(db, runId, {
      status: error ? 'error' : 'ok',
      counts,
      snapshot: memorySnapshot(db, agentId),
      error,
      now: finished,
    });
    logProcessing(db, {
      kind: 'consolidate',
      agentId: agentId ?? null,
      status: error ? 'error' : 'ok',
      durationMs: performance.now() - t0,
      error,
      now: finished,
    });
    log.info('consolidation finished', { trigger, status: run.status, ...counts });
    return toRunDto(run);
  }

  function intervalMs(): number {
    return settings.get().consolidationIntervalHours * 3_600_000;
  }

  function arm(): void {
    if (timer) clearTimeout(timer);
    const now = clock.now();
    let since = lastFullRunAt(db);
    if (since === null) {
      // Never consolidated: count from the first time the timer ran, persisted so that an app
      // restarted every day still consolidates.
      const stored = Number(getMeta(db, TIMER_SINCE_KEY));
      since = Number.isFinite(stored) && stored > 0 ? stored : now;
      if (!(stored > 0)) setMeta(db, TIMER_SINCE_KEY, String(since));
    }
    const due = since + intervalMs();
    const delay = due <= now ? (options.catchUpDelayMs ?? 60_000) : due - now;
    nextAt = now + delay;
    timer = setTimeout(
      () => {
        timer = null;
        service
          .run('timer')
          .catch((err: unknown) => log.error('timer consolidation failed', { err }))
          .finally(() => {
            if (unsubscribe) arm();
          });
      },
      Math.min(delay, 2_147_000_000),
    );
    timer.unref();
  }

  const service = {
    run(trigger: 'timer' | 'manual', agentId?: string): Promise<ConsolidationRun> {
      const p = chain.then(() => runOnce(trigger, agentId));
      chain = p.catch(() => undefined);
      return p;
    },
    startTimer(): void {
      if (unsubscribe) return;
      closeStaleRuns(db, clock.now());
      unsubscribe = settings.onChange((next, prev) => {
        if (next.consolidationIntervalHours !== prev.consolidationIntervalHours) arm();
      });
      arm();
    },
    stopTimer(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      nextAt = null;
      unsubscribe?.();
      unsubscribe = null;
    },
    /** What a run would change (counts per step); changes nothing. */
    dryRun,
    /** When the timer fires next (ms), or null when stopped. */
    nextRunAt(): number | null {
      return nextAt;
    },
  };
  return service;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
