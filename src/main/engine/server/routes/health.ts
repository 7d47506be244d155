import type { FastifyInstance } from 'fastify';
import type { HealthResponse } from '../../../../shared/api.ts';
import { displayUrl } from '../../../../shared/urls.ts';
import type { EngineServices } from '../../services.ts';
import { PUBLIC_ROUTE } from '../security.ts';

export function registerHealthRoutes(app: FastifyInstance, services: EngineServices): void {
  // Every failing request tells the database's health what it ran into (a full disk, a
  // damaged page); the error handler answers the client.
  app.addHook('onError', async (_request, _reply, err) => {
    services.dbHealth.noteError(err);
  });

  app.get('/health', PUBLIC_ROUTE, async (): Promise<HealthResponse> => {
    const database = services.dbHealth.report();
    const embedder = services.embedder.state();
    const url = services.upstream.baseUrl();
    return {
      // Memory works without embeddings (FTS5 search), so a model that failed to download is
      // reported in `embedder`, not as a degraded server. A damaged, full or quarantined
      // database is.
      status: database.problem === null ? 'ok' : 'degraded',
      version: services.version,
      encryption: { enabled: true, cipher: 'sqlcipher', keySource: services.keySource },
      embedder,
      upstream: { configured: url !== null, url: displayUrl(url) },
      memoryEnabled: services.settings.get().enabled,
      uptimeSeconds: Math.round((services.clock.now() - services.startedAt) / 1000),
      quarantined: services.quarantined,
      ...database,
    };
  });
}
