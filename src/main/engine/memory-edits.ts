// Remembering and forgetting single memories (DESIGN §9): the one implementation behind the
// REST routes (POST /memory/pinned, DELETE /memory/{scope}/:id) and the MCP tools `remember`
// and `forget`, so both transports strip <private> spans, keep identity overrides in step,
// index vectors and go through the trash in exactly the same way.
import type { z } from 'zod';
import type { EpisodePatch, PinnedPatch, SearchScope } from '../../shared/api.ts';

type PinnedChange = z.infer<typeof PinnedPatch>;
type EpisodeChange = z.infer<typeof EpisodePatch>;
import { ErrorCode } from '../../shared/errors.ts';
import { CairnError } from './errors.ts';
import { isOnlyPrivate, stripPrivate } from './text/private.ts';
import type { EngineServices } from './services.ts';
import { getEpisode, updateEpisode, type EpisodeRecord } from './store/episodes.ts';
import { reviseIdentityOverride } from './store/identity.ts';
import { addForgotten, unforgetWording } from './store/forgotten.ts';
import { getPinned, insertPinned, updatePinned, type PinnedRecord } from './store/pinned.ts';
import { inTransaction } from './store/transaction.ts';
import type { VectorKind } from './store/vectors.ts';
import { getTranscriptRows } from './store/transcript.ts';
import { forgottenWording, statesForgotten } from './memory/suppress.ts';
import type { TranscriptRow } from '../../shared/api.ts';

type Deps = Pick<EngineServices, 'db' | 'clock' | 'vectors' | 'deletion' | 'logger'>;
type SourceDeps = Pick<EngineServices, 'db' | 'memory'>;

/** Conversation turns searched for a fact's wording (its sources by what they say). */
const SOURCE_CANDIDATES = 50;

/**
 * The messages a fact came from: the transcript rows its extraction recorded (provenance),
 * and any other turn that states it in the same words (memory/suppress.ts) — what "forget
 * with its sources" deletes too, and what the UI links a fact to.
 */
export async function factSources(
  deps: SourceDeps,
  agentId: string,
  id: number,
): Promise<TranscriptRow[]> {
  const fact = getPinned(deps.db, agentId, id);
  if (!fact)
    throw new CairnError(ErrorCode.NotFound, `No pinned fact with id ${id} for this agent.`);
  const ids = new Set(fact.source_ids ?? []);
  const wording = forgottenWording(fact.content);
  if (wording) {
    const found = await deps.memory.search({
      agent_id: agentId,
      scope: 'transcript',
      query: fact.content,
      top_k: SOURCE_CANDIDATES,
    });
    for (const r of found) if (statesForgotten(r.content, [wording])) ids.add(r.id);
  }
  return getTranscriptRows(deps.db, agentId, [...ids]).sort((a, b) => a.id - b.id);
}

export interface NewFact {
  agentId: string;
  content: string;
  salience?: number;
  tags?: string[];
  /** Stored by the user (true) or by an agent through MCP (false). */
  pinnedByUser: boolean;
}

/**
 * Stores a pinned fact with its <private> spans removed; refuses one that is nothing but
 * private text. The vector is computed in the background: the fact is searchable by FTS
 * at once.
 */
export function rememberFact(deps: Deps, fact: NewFact): PinnedRecord {
  const content = stripPrivate(fact.content);
  if (isOnlyPrivate(content)) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      'content is empty once <private> spans are removed.',
    );
  }
  const id = insertPinned(
    deps.db,
    {
      agentId: fact.agentId,
      content,
      salience: fact.salience ?? 0.8,
      tags: fact.tags ?? [],
      pinnedByUser: fact.pinnedByUser,
      sourceEpisodeId: null,
    },
    deps.clock.now(),
  );
  deps.vectors
    ?.indexRows('pinned', [{ id, agentId: fact.agentId, text: content }])
    .catch((err: unknown) => {
      deps.logger
        .child('memory-admin')
        .warn('embedding a new fact failed', { err: (err as Error).message });
    });
  return getPinned(deps.db, fact.agentId, id)!;
}

export interface Forgotten {
  id: number;
  trashId: number;
}

const WHAT: Record<SearchScope, string> = {
  pinned: 'pinned fact',
  episodes: 'episode',
  transcript: 'transcript row',
};

/**
 * Moves one memory of this agent to the trash (restorable for `trashDays`). A forgotten
 * pinned fact leaves the identity overrides too, or it would still be injected; and the
 * agent's remembered memory blocks go, or a re-sent message would carry the forgotten wording
 * back in its block (memory/deletion.ts, `dropMemoryBlocks`). Another agent's id is answered
 * exactly like an unknown one (404).
 */
export async function forgetMemory(
  deps: Deps & SourceDeps,
  agentId: string,
  scope: SearchScope,
  id: number,
  options: { withSources?: boolean } = {},
): Promise<Forgotten> {
  const notFound = () =>
    new CairnError(ErrorCode.NotFound, `No ${WHAT[scope]} with id ${id} for this agent.`);
  if (scope === 'pinned') {
    const fact = getPinned(deps.db, agentId, id);
    if (!fact) throw notFound();
    // With its sources: the messages it came from go to the trash in the same entry.
    const sources = options.withSources
      ? (await factSources(deps, agentId, id)).map((r) => r.id)
      : [];
    const result = await deps.deletion.trash(agentId, 'fact', fact.content, {
      pinned_facts: [id],
      ...(sources.length > 0 ? { transcript: sources } : {}),
      dropMemoryBlocks: true,
    });
    if (!result) throw notFound();
    reviseIdentityOverride(deps.db, agentId, fact.content, null, deps.clock.now());
    return { id, trashId: result.trashId };
  }
  if (scope === 'episodes') {
    const episode = getEpisode(deps.db, agentId, id);
    if (!episode) throw notFound();
    const result = await deps.deletion.trash(agentId, 'episode', episode.summary, {
      episodes: [id],
      dropMemoryBlocks: true,
    });
    if (!result) throw notFound();
    return { id, trashId: result.trashId };
  }
  const result = await deps.deletion.trash(agentId, 'message', `Message ${id}`, {
    transcript: [id],
    dropMemoryBlocks: true,
  });
  if (!result) throw notFound();
  return { id, trashId: result.trashId };
}

/** A text edited by the user: <private> spans out, and not nothing but private text. */
function editedText(field: string, text: string): string {
  const clean = stripPrivate(text);
  if (isOnlyPrivate(clean)) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      `${field} is empty once <private> spans are removed.`,
    );
  }
  return clean;
}

/** Embeds an edited row in the background: the edit is already stored and searchable (FTS). */
function reindex(deps: Deps, kind: VectorKind, id: number, agentId: string, text: string): void {
  deps.vectors?.indexRows(kind, [{ id, agentId, text }]).catch((err: unknown) => {
    deps.logger
      .child('memory-edits')
      .warn('re-embedding failed', { kind, err: (err as Error).message });
  });
}

/**
 * Edits a pinned fact (content, salience, status, pin). A fact that is also an always-on
 * identity override takes the override with it: a correction rewrites it, a disable removes
 * it, or the old text would still be injected into every request. The wording the user turned
 * off or corrected is kept out of the memory block like a forgotten fact's (a conversation
 * line that says it is not injected either) until it is made true again. Null when there is
 * no such fact for this agent.
 */
export function editFact(
  deps: Deps,
  agentId: string,
  id: number,
  patch: PinnedChange,
): PinnedRecord | null {
  const clean =
    patch.content === undefined
      ? patch
      : { ...patch, content: editedText('content', patch.content) };
  const now = deps.clock.now();
  const updated = inTransaction(deps.db, () => {
    const before = getPinned(deps.db, agentId, id);
    const after = updatePinned(deps.db, agentId, id, clean, now);
    if (before && after) {
      if (after.status === 'disabled') {
        reviseIdentityOverride(deps.db, agentId, before.content, null, now);
      } else if (after.content !== before.content) {
        reviseIdentityOverride(deps.db, agentId, before.content, after.content, now);
      }
      keepOutTurnedOff(deps.db, agentId, before, after, now);
    }
    return after;
  });
  if (updated && clean.content !== undefined) {
    reindex(deps, 'pinned', id, agentId, updated.content);
  }
  return updated;
}

/**
 * The forgotten wordings after an edit: what the user turned off or corrected is kept out,
 * what is true (enabled again, or edited back) is not.
 */
function keepOutTurnedOff(
  db: Deps['db'],
  agentId: string,
  before: PinnedRecord,
  after: PinnedRecord,
  now: number,
): void {
  const wasOff = before.status === 'disabled';
  const changed = after.content !== before.content;
  if (after.status === 'disabled') {
    if (!wasOff)
      addForgotten(
        db,
        agentId,
        changed ? [before.content, after.content] : [before.content],
        null,
        now,
      );
    else if (changed) addForgotten(db, agentId, [after.content], null, now);
    return;
  }
  if (changed && !wasOff) addForgotten(db, agentId, [before.content], null, now);
  unforgetWording(db, agentId, after.content);
}

/** Edits an episode (summary, lists, salience); null when there is no such episode. */
export function editEpisode(
  deps: Deps,
  agentId: string,
  id: number,
  patch: EpisodeChange,
): EpisodeRecord | null {
  const clean =
    patch.summary === undefined
      ? patch
      : { ...patch, summary: editedText('summary', patch.summary) };
  const updated = updateEpisode(deps.db, agentId, id, clean, deps.clock.now());
  if (updated && clean.summary !== undefined) {
    reindex(deps, 'episode', id, agentId, updated.summary);
  }
  return updated;
}
