import type { ActivitySource } from '../../../shared/api.ts';
import { pinnedFactsStating } from '../store/identity-sources.ts';
import { getIdentity } from '../store/identity.ts';
import { groupCommit } from '../store/group-commit.ts';
import { recordActivity } from '../store/memory-activity.ts';
import type { Db } from '../store/db.ts';
import {
  memoryHeaderValue,
  type MemoryTurn,
  type MemoryTurnDeps,
  type MemoryTurnRequest,
} from './memory-turn.ts';

// What memory did for a request (issue 12, item 1), written after the answer at a quiet
// moment, never on the request path: one memory_activity row per request with the agent
// header, and in the same commit the usage of the facts and episodes its block showed (the
// proxy's planner records none itself). Its lines are stored as sources; their text only when
// the user opted in (`activityKeepLines`). Nothing here is logged.

/**
 * Schedules recording the outcome of one memory turn. Every fact and episode of the block
 * counts as used (use_count, last_used); identity lines are traced back to the pinned fact
 * that states them, which then counts as used too and is named as the line's source.
 */
export function recordMemoryActivity(
  deps: MemoryTurnDeps,
  request: MemoryTurnRequest,
  turn: MemoryTurn,
): void {
  if (!turn.active) return; // memory switched off: nothing is written
  deps.background.runWhenQuiet('record-memory-activity', () => {
    const { db, settings } = deps.services;
    const lines = turn.lines ?? [];
    const sources = identityToFacts(
      db,
      request.agentId,
      lines.map((l) => l.source),
    );
    // With the turn's own rows, in one commit (group-commit.ts).
    return groupCommit(db).write(() =>
      recordActivity(
        db,
        {
          agentId: request.agentId,
          at: request.startedAt,
          conversationId: request.conversationId,
          protocol: request.protocol,
          section: turn.section,
          tokens: turn.tokens,
          header: memoryHeaderValue(turn),
          sources,
          lines: settings.get().activityKeepLines ? lines.map((l) => l.text) : null,
        },
        { ...usedRows(sources), at: request.startedAt },
      ),
    );
  });
}

/** The facts and episodes among a block's sources, each once. */
function usedRows(sources: readonly ActivitySource[]): { pinned: number[]; episodes: number[] } {
  const ids = (scope: ActivitySource['scope']) => [
    ...new Set(sources.flatMap((s) => (s.scope === scope && s.id !== null ? [s.id] : []))),
  ];
  return { pinned: ids('pinned'), episodes: ids('episodes') };
}

/**
 * Replaces the source of each identity override line by the pinned fact with the same text
 * (when there is one): the planner left the fact's own line out as a repeat of the override,
 * so without this the fact would show "used 0×" forever.
 */
function identityToFacts(
  db: Db,
  agentId: string,
  sources: readonly ActivitySource[],
): ActivitySource[] {
  const overrideAt = sources.flatMap((s, i) =>
    s.scope === 'identity' && s.id !== null ? [i] : [],
  );
  if (overrideAt.length === 0) return [...sources];
  const overrides = getIdentity(db, agentId).overrides;
  const texts = overrideAt.map((i) => overrides[sources[i]!.id!] ?? '');
  const facts = pinnedFactsStating(db, agentId, texts);
  const out = [...sources];
  overrideAt.forEach((at, k) => {
    const factId = facts.get(k);
    if (factId !== undefined) out[at] = { scope: 'pinned', id: factId };
  });
  return out;
}
