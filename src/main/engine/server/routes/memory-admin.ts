// Memory administration (DESIGN §9): browse, edit, pin, disable and forget pinned facts,
// episodes, identity and transcript rows; run consolidation; stats and diagnostics.
// Every route that touches a memory row takes `agent_id` (query string, or the body for
// creation) and every lookup is scoped by it, so nothing crosses agents: another agent's id
// answers 404 exactly like an unknown one.
import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ConsolidateRequest,
  EpisodeListQuery,
  EpisodePatch,
  IdentityPut,
  PinnedCreate,
  PinnedListQuery,
  PinnedPatch,
  TranscriptListQuery,
  type ConsolidationDryRun,
  type ConsolidationRun,
  type DiagnosticsResponse,
  type StatsResponse,
} from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import { toRunDto } from '../../memory/consolidator.ts';
import { isOnlyPrivate, stripPrivate } from '../../text/private.ts';
import type { EngineServices } from '../../services.ts';
import { listRuns } from '../../store/consolidation.ts';
import { getEpisode, listEpisodes } from '../../store/episodes.ts';
import { getIdentity, putIdentity } from '../../store/identity.ts';
import { databaseSizeBytes, memoryCounts } from '../../store/memory-stats.ts';
import { getPinned, listPinned } from '../../store/pinned.ts';
import { listProcessingLog } from '../../store/processing-log.ts';
import { getSignal, listSignals, retryDeadLetter, type SignalRecord } from '../../store/signals.ts';
import { listTranscript } from '../../store/transcript.ts';
import {
  editEpisode,
  editFact,
  factSources,
  forgetMemory,
  rememberFact,
} from '../../memory-edits.ts';
import { parseWith } from '../validate.ts';
import { iso, toEpisodeDto, toIdentityDto, toPinnedDto } from '../../memory-dto.ts';

function toSignalDto(s: SignalRecord) {
  return {
    id: s.id,
    agent_id: s.agent_id,
    conversation_id: s.conversation_id,
    status: s.status,
    attempts: s.attempts,
    last_error: s.last_error,
    created_at: iso(s.created_at)!,
    updated_at: iso(s.updated_at)!,
  };
}

const IdParam = z.object({
  id: z.coerce
    .number({ error: 'id must be a positive integer' })
    .int('id must be a positive integer')
    .min(1, 'id must be a positive integer')
    .max(Number.MAX_SAFE_INTEGER),
});
const AgentQuery = z.object({
  agent_id: z.string().trim().min(1, 'agent_id is required').max(200),
});
const ForgetQuery = z.object({
  agent_id: z.string().trim().min(1, 'agent_id is required').max(200),
  /** Also move the messages the fact came from to the trash (same entry). */
  with_sources: z.enum(['true', 'false']).optional(),
});
const RunsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  agent_id: z.string().trim().min(1).max(200).optional(),
});
const DiagnosticsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

function notFound(what: string, id: number): CairnError {
  return new CairnError(ErrorCode.NotFound, `No ${what} with id ${id} for this agent.`);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function registerMemoryAdminRoutes(app: FastifyInstance, services: EngineServices): void {
  const { db, clock } = services;
  const log = services.logger.child('memory-admin');

  const target = (params: unknown, query: unknown) => ({
    id: parseWith(IdParam, params, 'id').id,
    agentId: parseWith(AgentQuery, query, 'query').agent_id,
  });

  // ---------- pinned facts ----------

  app.get('/memory/pinned', async (request) => {
    const q = parseWith(PinnedListQuery, request.query, 'query');
    const { items, total } = listPinned(db, {
      agentId: q.agent_id,
      status: q.status,
      sort: q.sort,
      limit: q.limit,
      offset: q.offset,
      q: q.q,
    });
    return { items: items.map(toPinnedDto), total };
  });

  app.post('/memory/pinned', async (request, reply) => {
    const body = parseWith(PinnedCreate, request.body);
    const fact = rememberFact(services, {
      agentId: body.agent_id,
      content: body.content,
      salience: body.salience,
      tags: body.tags,
      pinnedByUser: body.pinned_by_user ?? true,
    });
    reply.code(201);
    return toPinnedDto(fact);
  });

  app.get('/memory/pinned/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const fact = getPinned(db, agentId, id);
    if (!fact) throw notFound('pinned fact', id);
    return toPinnedDto(fact);
  });

  app.patch('/memory/pinned/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const updated = editFact(services, agentId, id, parseWith(PinnedPatch, request.body));
    if (!updated) throw notFound('pinned fact', id);
    return toPinnedDto(updated);
  });

  /** The messages a fact came from (provenance, and turns that state it in the same words). */
  app.get('/memory/pinned/:id/sources', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    return { items: await factSources(services, agentId, id) };
  });

  app.delete('/memory/pinned/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const { with_sources } = parseWith(ForgetQuery, request.query, 'query');
    const { trashId } = await forgetMemory(services, agentId, 'pinned', id, {
      withSources: with_sources === 'true',
    });
    return { deleted: true, id, trash_id: trashId };
  });

  // ---------- episodes ----------

  app.get('/memory/episodes', async (request) => {
    const q = parseWith(EpisodeListQuery, request.query, 'query');
    const { items, total } = listEpisodes(db, {
      agentId: q.agent_id,
      limit: q.limit,
      offset: q.offset,
      q: q.q,
      conversationId: q.conversation_id,
    });
    return { items: items.map(toEpisodeDto), total };
  });

  app.get('/memory/episodes/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const ep = getEpisode(db, agentId, id);
    if (!ep) throw notFound('episode', id);
    return toEpisodeDto(ep);
  });

  app.patch('/memory/episodes/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const updated = editEpisode(services, agentId, id, parseWith(EpisodePatch, request.body));
    if (!updated) throw notFound('episode', id);
    return toEpisodeDto(updated);
  });

  app.delete('/memory/episodes/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const { trashId } = await forgetMemory(services, agentId, 'episodes', id);
    return { deleted: true, id, trash_id: trashId };
  });

  // ---------- identity ----------

  app.get('/memory/identity', async (request) => {
    const { agent_id } = parseWith(AgentQuery, request.query, 'query');
    return toIdentityDto(getIdentity(db, agent_id));
  });

  app.put('/memory/identity', async (request) => {
    const body = parseWith(IdentityPut, request.body);
    const overrides = body.overrides?.filter((o) => !isOnlyPrivate(o)).map(stripPrivate);
    const narrative = body.narrative === undefined ? undefined : stripPrivate(body.narrative);
    return toIdentityDto(
      putIdentity(
        db,
        body.agent_id,
        {
          ...(narrative !== undefined ? { narrative } : {}),
          ...(overrides !== undefined ? { overrides } : {}),
        },
        clock.now(),
      ),
    );
  });

  // ---------- transcript ----------

  app.get('/memory/transcript', async (request) => {
    const q = parseWith(TranscriptListQuery, request.query, 'query');
    return listTranscript(db, {
      agentId: q.agent_id,
      conversationId: q.conversation_id,
      limit: q.limit,
      offset: q.offset,
      q: q.q,
      order: q.conversation_id !== undefined ? 'asc' : 'desc',
    });
  });

  app.delete('/memory/transcript/:id', async (request) => {
    const { id, agentId } = target(request.params, request.query);
    const { trashId } = await forgetMemory(services, agentId, 'transcript', id);
    return { deleted: true, id, trash_id: trashId };
  });

  // ---------- consolidation ----------

  app.post(
    '/memory/consolidate',
    async (request): Promise<ConsolidationRun | ConsolidationDryRun> => {
      const body = parseWith(ConsolidateRequest, request.body ?? {});
      if (body.dry_run === true) {
        const counts = await services.consolidator.dryRun(body.agent_id);
        return { dry_run: true, agent_id: body.agent_id ?? null, counts };
      }
      return services.consolidator.run('manual', body.agent_id);
    },
  );

  app.get('/memory/consolidation/runs', async (request) => {
    const q = parseWith(RunsQuery, request.query, 'query');
    return { runs: listRuns(db, q.limit, q.agent_id).map(toRunDto) };
  });

  // ---------- stats / diagnostics ----------

  app.get('/memory/stats', async (): Promise<StatsResponse> => {
    const counts = memoryCounts(db);
    const history = listRuns(db, 200)
      .filter((r) => r.agent_id === null && r.status === 'ok' && r.snapshot !== null)
      .slice(0, 60)
      .reverse()
      .map((r) => ({
        at: iso(r.finished_at ?? r.started_at)!,
        pinned: r.snapshot!.pinned,
        episodes: r.snapshot!.episodes,
        avg_salience: r.snapshot!.avg_salience,
      }));
    return { ...counts, db_size_bytes: databaseSizeBytes(db), history };
  });

  app.get('/memory/diagnostics', async (request): Promise<DiagnosticsResponse> => {
    const { limit } = parseWith(DiagnosticsQuery, request.query, 'query');
    return {
      pending: listSignals(db, { statuses: ['pending', 'processing'], limit }).map(toSignalDto),
      dead_letters: listSignals(db, { statuses: ['dead_letter'], limit }).map(toSignalDto),
      processing_log: listProcessingLog(db, { limit }).map((e) => ({
        ...e,
        created_at: iso(e.created_at)!,
      })),
      db_size_bytes: fileSize(services.dbPath) || databaseSizeBytes(db),
      wal_size_bytes: fileSize(services.dbPath + '-wal'),
      embedder: services.embedder.state(),
    };
  });

  app.post('/memory/diagnostics/retry/:id', async (request) => {
    const { id } = parseWith(IdParam, request.params, 'id');
    const existing = getSignal(db, id);
    if (!existing) {
      throw new CairnError(ErrorCode.NotFound, `No pending signal with id ${id}.`);
    }
    const signal = retryDeadLetter(db, id, clock.now());
    if (!signal) {
      throw new CairnError(
        ErrorCode.Conflict,
        `Signal ${id} is ${existing.status}, not a dead letter: nothing to retry.`,
      );
    }
    // Distil in the background: a Core Model call may take a while.
    services.distiller.distilNow(signal.agent_id, signal.conversation_id).catch((err: unknown) => {
      log.warn('retry of a dead letter failed', { err: (err as Error).message });
    });
    return toSignalDto(signal);
  });
}
