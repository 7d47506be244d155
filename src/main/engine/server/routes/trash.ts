// Deleting at every scale, and the trash (DESIGN §8–§9, issue 12): a conversation, an agent or
// a selection moves to the trash as one entry, restorable for `trashDays`. Routes parse, call
// the deletion service and shape the answer.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  BulkDeleteRequest,
  TrashListQuery,
  type DeletionResponse,
  type TrashItem,
  type TrashListResponse,
} from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { DeletionResult } from '../../memory/deletion.ts';
import type { EngineServices } from '../../services.ts';
import { listTrash, purgeTrashEntry, type TrashEntryRecord } from '../../store/trash.ts';
import { parseWith } from '../validate.ts';
import { AgentParam } from './agents.ts';

const DAY_MS = 86_400_000;

const TrashIdParam = z.object({
  id: z.coerce.number().int('id must be a positive integer').min(1).max(Number.MAX_SAFE_INTEGER),
});
const ConversationParam = z.object({ id: z.string().trim().min(1).max(300) });
const AgentQuery = z.object({
  agent_id: z.string().trim().min(1, 'agent_id is required').max(200),
});

function toTrashItem(r: TrashEntryRecord, trashDays: number): TrashItem {
  return {
    id: r.id,
    agent_id: r.agentId,
    kind: r.kind,
    label: r.label,
    deleted_at: new Date(r.deletedAt).toISOString(),
    expires_at: new Date(r.deletedAt + trashDays * DAY_MS).toISOString(),
    item_count: r.itemCount,
    counts: r.counts,
  };
}

function deleted(result: DeletionResult | null, what: string): DeletionResponse {
  if (!result) throw new CairnError(ErrorCode.NotFound, `No ${what}.`);
  return { deleted: true, trash_id: result.trashId, counts: result.counts };
}

export function registerTrashRoutes(app: FastifyInstance, services: EngineServices): void {
  const { db, deletion } = services;
  const trashDays = () => services.settings.get().trashDays;

  app.get('/memory/trash', async (request): Promise<TrashListResponse> => {
    const q = parseWith(TrashListQuery, request.query, 'query');
    const { items, total } = listTrash(db, {
      agentId: q.agent_id,
      limit: q.limit,
      offset: q.offset,
    });
    const days = trashDays();
    return { items: items.map((r) => toTrashItem(r, days)), total };
  });

  app.post('/memory/trash/:id/restore', async (request) => {
    const { id } = parseWith(TrashIdParam, request.params, 'id');
    const entry = await deletion.restore(id);
    if (!entry) throw new CairnError(ErrorCode.NotFound, `No trash entry with id ${id}.`);
    return { restored: true, item: toTrashItem(entry, trashDays()) };
  });

  /** Purges one entry now, for good (the user's explicit second step). */
  app.delete('/memory/trash/:id', async (request) => {
    const { id } = parseWith(TrashIdParam, request.params, 'id');
    if (!purgeTrashEntry(db, id)) {
      throw new CairnError(ErrorCode.NotFound, `No trash entry with id ${id}.`);
    }
    return { purged: true, id };
  });

  app.delete('/memory/conversations/:id', async (request): Promise<DeletionResponse> => {
    const { id } = parseWith(ConversationParam, request.params, 'conversation id');
    const { agent_id } = parseWith(AgentQuery, request.query, 'query');
    return deleted(
      await deletion.deleteConversation(agent_id, id),
      `conversation ${id} for this agent`,
    );
  });

  app.delete('/agents/:id', async (request): Promise<DeletionResponse> => {
    const { id } = parseWith(AgentParam, request.params, 'agent id');
    return deleted(await deletion.deleteAgent(id), `memory for agent ${id}`);
  });

  app.post('/memory/delete', async (request): Promise<DeletionResponse> => {
    const body = parseWith(BulkDeleteRequest, request.body);
    const n =
      (body.pinned?.length ?? 0) + (body.episodes?.length ?? 0) + (body.transcript?.length ?? 0);
    if (n === 0) {
      throw new CairnError(ErrorCode.ValidationFailed, 'Select at least one item to delete.');
    }
    return deleted(
      await deletion.trash(body.agent_id, 'selection', `${n} selected item${n === 1 ? '' : 's'}`, {
        pinned_facts: body.pinned,
        episodes: body.episodes,
        transcript: body.transcript,
        dropMemoryBlocks: true,
      }),
      'selected item for this agent',
    );
  });
}
