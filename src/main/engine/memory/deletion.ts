// Every deletion of memory goes through here (DESIGN §8, issue 12): rows move to the trash,
// where they stay `trashDays` and can be restored, before anything is gone for good. Big
// deletions (a conversation, an agent, a selection) are moved in batches, each its own short
// transaction, with the event loop free between batches, so no request waits behind one.
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { VectorKind, VectorService } from '../services.ts';
import { deleteMemoryAdditions } from '../store/memory-additions.ts';
import { deleteAgentActivity } from '../store/memory-activity.ts';
import { addForgotten, factContents, unforgetTrashEntry } from '../store/forgotten.ts';
import type { Db } from '../store/migrate.ts';
import { responseIdsOfAgent, responseIdsOfConversation } from '../store/response-chain.ts';
import {
  allRowIdsOfAgent,
  createTrashEntry,
  episodeIdsOfConversation,
  factIdsOnlyFrom,
  getTrashEntry,
  moveRowsToTrash,
  purgeTrashBefore,
  newRestoreState,
  restoreTrashEntry,
  restoreTrashStep,
  rowTextsForIndex,
  signalIdsOfConversation,
  transcriptIdsOfConversation,
  type RowKey,
  type RowTable,
  type TrashEntryRecord,
  type TrashTable,
} from '../store/trash.ts';

/** Deletions that are the user forgetting facts (not eviction, pruning or a conversation). */
const FORGETTING: ReadonlySet<string> = new Set(['fact', 'selection']);

/** Rows moved per transaction: a few milliseconds of work each on this machine. */
export const DELETE_BATCH = 250;
/**
 * Each batch (one transaction on the thread that also answers requests) aims at about this
 * long: the batch size follows what the last batch took (deleting a transcript row updates its
 * FTS index and overwrites its pages, secure_delete: ~0.3 ms a row here), so a request that
 * arrives meanwhile waits a few milliseconds, never the whole deletion.
 */
const BATCH_TARGET_MS = 4;
const MIN_BATCH = 5;

/** The next batch size from the last one's duration (pacing only, not a clock of record). */
function nextBatchSize(size: number, tookMs: number): number {
  if (tookMs > BATCH_TARGET_MS) return Math.max(MIN_BATCH, Math.floor(size / 2));
  if (tookMs < BATCH_TARGET_MS / 2) return Math.min(DELETE_BATCH, size * 2);
  return size;
}
const DAY_MS = 86_400_000;

export interface DeletionServiceOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The vector index (optional: absent when embeddings are off). */
  vectors?: VectorService | null;
  /** Yields to the event loop between batches (a test may pass a synchronous one). */
  yieldBetweenBatches?: () => Promise<void>;
}

/** What one deletion covers, per table (rows of other agents are never touched). */
export type Selection = Partial<Record<RowTable, readonly number[]>> & {
  /** The agent's identity and its per-agent controls too (deleting a whole agent). */
  agentState?: boolean;
  /** Stored OpenAI Responses, by their text ids (a conversation's or an agent's). */
  response_chain?: readonly string[];
  /**
   * The user forgets these rows: the agent's remembered memory blocks (sticky additions,
   * store/memory-additions.ts) are dropped too, or a client re-sending an old message would
   * get the forgotten wording back inside the block Cairn once added to it.
   */
  dropMemoryBlocks?: boolean;
};

export interface DeletionResult {
  trashId: number;
  /** Rows moved to the trash, per table. */
  counts: Partial<Record<TrashTable, number>>;
}

const VECTOR_KIND: Partial<Record<TrashTable, VectorKind>> = {
  transcript: 'transcript',
  episodes: 'episode',
  pinned_facts: 'pinned',
};

/** Order of moves: facts before the episodes they point at, signals before their rows. */
const MOVE_ORDER: readonly RowTable[] = [
  'pinned_facts',
  'episodes',
  'pending_signals',
  'transcript',
];

export interface DeletionService {
  /** Moves a selection of one agent to the trash as one entry; null when nothing matched. */
  trash(
    agentId: string,
    kind: string,
    label: string,
    selection: Selection,
  ): Promise<DeletionResult | null>;
  /**
   * A whole conversation: transcript, its episode, facts only it supports, its signals, its
   * stored Responses; the memory blocks added to its messages are dropped (a cache).
   */
  deleteConversation(agentId: string, conversationId: string): Promise<DeletionResult | null>;
  /** Everything an agent has (its memory blocks dropped, as for a conversation). */
  deleteAgent(agentId: string): Promise<DeletionResult | null>;
  /** Puts an entry back; null when there is no such entry. */
  restore(trashId: number): Promise<TrashEntryRecord | null>;
  /** Purges entries older than `trashDays`; returns how many. */
  purgeExpired(trashDays: number): number;
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createDeletionService(options: DeletionServiceOptions): DeletionService {
  const { db, clock } = options;
  const log = options.logger.child('trash');
  const yieldNow = options.yieldBetweenBatches ?? nextTick;

  const unindex = (table: TrashTable, ids: readonly number[]) => {
    const kind = VECTOR_KIND[table];
    if (!kind || !options.vectors) return;
    for (const id of ids) options.vectors.remove(kind, id);
  };

  async function moveInBatches(
    trashId: number,
    agentId: string,
    table: TrashTable,
    keys: readonly RowKey[],
  ): Promise<number> {
    let moved = 0;
    let size = MIN_BATCH * 4;
    for (let i = 0; i < keys.length;) {
      if (i > 0) await yieldNow();
      const batch = keys.slice(i, i + size);
      const started = performance.now();
      moved += moveRowsToTrash(db, trashId, agentId, table, batch);
      size = nextBatchSize(size, performance.now() - started);
      unindex(table, batch as number[]);
      i += batch.length;
    }
    return moved;
  }

  async function trash(
    agentId: string,
    kind: string,
    label: string,
    selection: Selection,
  ): Promise<DeletionResult | null> {
    const trashId = createTrashEntry(db, { agentId, kind, label, now: clock.now() });
    // Facts the user forgot (one, or a selection): their wording stays out of later blocks
    // too (memory/suppress.ts). Evicted facts and deleted conversations are not forgotten
    // wording: the user did not say "forget this".
    const forgottenFacts = FORGETTING.has(kind)
      ? factContents(db, agentId, selection.pinned_facts ?? [])
      : [];
    const counts: DeletionResult['counts'] = {};
    for (const table of MOVE_ORDER) {
      const ids = selection[table];
      if (!ids || ids.length === 0) continue;
      const n = await moveInBatches(trashId, agentId, table, ids);
      if (n > 0) counts[table] = n;
    }
    if (selection.response_chain && selection.response_chain.length > 0) {
      const n = await moveInBatches(trashId, agentId, 'response_chain', selection.response_chain);
      if (n > 0) counts.response_chain = n;
    }
    if (selection.agentState) {
      for (const table of ['identity', 'agent_settings'] as const) {
        const n = moveRowsToTrash(db, trashId, agentId, table, [agentId]);
        if (n > 0) counts[table] = n;
      }
    }
    const entry = getTrashEntry(db, trashId);
    if (!entry || entry.itemCount === 0) {
      restoreTrashEntry(db, trashId); // empty: removes the entry
      return null;
    }
    // All of the agent's blocks, not only those quoting the rows: a block's lines are
    // neutralised and cut to the budget, so a text search could miss one. Each conversation
    // then pays one prompt-cache miss; its next request gets a fresh block.
    if (selection.dropMemoryBlocks) deleteMemoryAdditions(db, agentId);
    if (forgottenFacts.length > 0) addForgotten(db, agentId, forgottenFacts, trashId, clock.now());
    log.info('moved to trash', { kind, trashId, rows: entry.itemCount });
    return { trashId, counts };
  }

  async function restore(trashId: number): Promise<TrashEntryRecord | null> {
    const entry = getTrashEntry(db, trashId);
    if (!entry) return null;
    // Before the entry goes (its removal unlinks the forgotten wording from it).
    unforgetTrashEntry(db, trashId);
    // In steps, like a deletion: each a short transaction, the event loop free between them.
    const state = newRestoreState();
    let size = MIN_BATCH * 4;
    for (;;) {
      const started = performance.now();
      const n = restoreTrashStep(db, trashId, size, state);
      if (n === null) return null;
      if (n === 0) break;
      size = nextBatchSize(size, performance.now() - started);
      await yieldNow();
    }
    log.info('restored from trash', { trashId, rows: entry.itemCount });
    reindexRestored(state.restored, entry.agentId);
    return entry;
  }

  /** Restored rows get their vectors again (they were removed with the rows). */
  function reindexRestored(restored: Partial<Record<TrashTable, number[]>>, agentId: string): void {
    const vectors = options.vectors;
    if (!vectors) return;
    const restoredIds: [VectorKind, number[] | undefined][] = [
      ['transcript', restored.transcript],
      ['episode', restored.episodes],
      ['pinned', restored.pinned_facts],
    ];
    for (const [kind, ids] of restoredIds) {
      if (!ids || ids.length === 0) continue;
      vectors.indexRows(kind, rowTextsForIndex(db, kind, agentId, ids)).catch((err: unknown) => {
        log.warn('re-embedding restored rows failed', { kind, err: (err as Error).message });
      });
    }
  }

  return {
    trash,
    async deleteConversation(agentId, conversationId) {
      const episodes = episodeIdsOfConversation(db, agentId, conversationId);
      const result = await trash(agentId, 'conversation', `Conversation ${conversationId}`, {
        pinned_facts: factIdsOnlyFrom(db, agentId, episodes),
        episodes,
        pending_signals: signalIdsOfConversation(db, agentId, conversationId),
        transcript: transcriptIdsOfConversation(db, agentId, conversationId),
        response_chain: responseIdsOfConversation(db, agentId, conversationId),
      });
      // The blocks added to its messages are a cache of memory, not memory: they go now, not to
      // the trash (a restored conversation's next request gets fresh ones).
      deleteMemoryAdditions(db, agentId, conversationId);
      return result;
    },
    async deleteAgent(agentId) {
      const result = await trash(agentId, 'agent', `Agent ${agentId}`, {
        pinned_facts: allRowIdsOfAgent(db, agentId, 'pinned_facts'),
        episodes: allRowIdsOfAgent(db, agentId, 'episodes'),
        pending_signals: allRowIdsOfAgent(db, agentId, 'pending_signals'),
        transcript: allRowIdsOfAgent(db, agentId, 'transcript'),
        response_chain: responseIdsOfAgent(db, agentId),
        agentState: true,
      });
      // The blocks added to its messages are a cache, gone at once like the conversation's.
      deleteMemoryAdditions(db, agentId);
      // Its activity log (what memory did for its requests) is a log, not memory: it goes now.
      if (result) deleteAgentActivity(db, agentId);
      return result;
    },
    restore,
    purgeExpired(trashDays) {
      const purged = purgeTrashBefore(db, clock.now() - trashDays * DAY_MS);
      if (purged > 0) log.info('purged expired trash', { entries: purged });
      return purged;
    },
  };
}
