import type { FastifyInstance } from 'fastify';
import type { EmbedderStateDto } from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';

/**
 * "Retry download" on the Diagnostics page: tries a failed sentence-model load again now,
 * instead of waiting for the next automatic attempt or a restart. A download can take
 * minutes, so the answer (202) is the state right after the attempt started; the page
 * follows progress through the embedder state it already polls.
 */
export function registerEmbedderRoutes(app: FastifyInstance, services: EngineServices): void {
  app.post('/memory/embedder/retry', async (_request, reply): Promise<EmbedderStateDto> => {
    void services.embedder.retry();
    reply.code(202);
    return services.embedder.state();
  });
}
