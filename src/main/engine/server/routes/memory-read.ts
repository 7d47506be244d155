import type { FastifyInstance } from 'fastify';
import {
  ContextRequest,
  SearchRequest,
  type ContextResponse,
  type SearchResponse,
} from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';
import { parseWith } from '../validate.ts';

/**
 * POST /memory/search (Osaurus-compatible scopes) and POST /memory/context (what would be
 * injected for a message, without recording usage). The query is free text: FTS5 syntax in
 * it (`"`, `*`, `NEAR(`, `AND`, `)`) is treated as words, never as an error.
 */
export function registerMemoryReadRoutes(app: FastifyInstance, services: EngineServices): void {
  app.post('/memory/search', async (request): Promise<SearchResponse> => {
    const req = parseWith(SearchRequest, request.body);
    return { results: await services.memory.search(req) };
  });

  app.post('/memory/context', async (request): Promise<ContextResponse> => {
    const req = parseWith(ContextRequest, request.body);
    const result = await services.memory.buildContext(req.agent_id, req.message, {
      bumpUsage: false,
    });
    return { section: result.section, block: result.block, tokens: result.tokens };
  });
}
