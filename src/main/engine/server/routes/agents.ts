import type { FastifyInstance } from 'fastify';
import type { AgentsResponse } from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';
import { listAgentSummaries } from '../../store/agents.ts';

export function registerAgentRoutes(app: FastifyInstance, services: EngineServices): void {
  app.get('/agents', async (): Promise<AgentsResponse> => ({
    agents: listAgentSummaries(services.db),
  }));
}
