// Agents (DESIGN §9): the list with counts, and each agent's own controls (issue 12: pause
// memory, token budget, retention, display name). Deleting an agent is in routes/trash.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AgentControlsPatch,
  type AgentControls,
  type AgentsResponse,
} from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { EngineServices } from '../../services.ts';
import {
  getAgentSettings,
  patchAgentSettings,
  type AgentSettingsRecord,
} from '../../store/agent-settings.ts';
import { listAgentSummaries } from '../../store/agents.ts';
import { parseWith } from '../validate.ts';

/** `:id` of /agents/:id (also DELETE /agents/:id, in routes/trash.ts). */
export const AgentParam = z.object({ id: z.string().trim().min(1).max(200) });

function toControls(r: AgentSettingsRecord): AgentControls {
  return {
    display_name: r.displayName,
    paused: r.paused,
    memory_budget_tokens: r.memoryBudgetTokens,
    episode_retention_days: r.episodeRetentionDays,
    transcript_retention_days: r.transcriptRetentionDays,
  };
}

export function registerAgentRoutes(app: FastifyInstance, services: EngineServices): void {
  const { db } = services;

  app.get('/agents', async (): Promise<AgentsResponse> => ({ agents: listAgentSummaries(db) }));

  app.get('/agents/:id', async (request) => {
    const { id } = parseWith(AgentParam, request.params, 'agent id');
    const summary = listAgentSummaries(db).find((a) => a.id === id);
    if (!summary) throw new CairnError(ErrorCode.NotFound, `No agent ${id}.`);
    return { agent: summary, controls: toControls(getAgentSettings(db, id)) };
  });

  app.patch('/agents/:id', async (request) => {
    const { id } = parseWith(AgentParam, request.params, 'agent id');
    const patch = parseWith(AgentControlsPatch, request.body ?? {});
    const next = patchAgentSettings(
      db,
      id,
      {
        ...(patch.display_name !== undefined ? { displayName: patch.display_name } : {}),
        ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
        ...(patch.memory_budget_tokens !== undefined
          ? { memoryBudgetTokens: patch.memory_budget_tokens }
          : {}),
        ...(patch.episode_retention_days !== undefined
          ? { episodeRetentionDays: patch.episode_retention_days }
          : {}),
        ...(patch.transcript_retention_days !== undefined
          ? { transcriptRetentionDays: patch.transcript_retention_days }
          : {}),
      },
      services.clock.now(),
    );
    return { controls: toControls(next) };
  });
}
