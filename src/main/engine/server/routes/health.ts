import type { FastifyInstance } from 'fastify';
import type { HealthResponse } from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';
import { PUBLIC_ROUTE } from '../security.ts';

/** The provider URL without credentials or query (GET /health needs no token). */
function displayUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/$/, '');
  } catch {
    return null;
  }
}

export function registerHealthRoutes(app: FastifyInstance, services: EngineServices): void {
  app.get('/health', PUBLIC_ROUTE, async (): Promise<HealthResponse> => {
    const embedder = services.embedder.state();
    const url = services.upstream.baseUrl();
    return {
      // Memory works without embeddings (FTS5 search), so a model that failed to download is
      // reported in `embedder`, not as a degraded server. A quarantined database is.
      status: services.quarantined === null ? 'ok' : 'degraded',
      version: services.version,
      encryption: { enabled: true, cipher: 'sqlcipher', keySource: services.keySource },
      embedder,
      upstream: { configured: url !== null, url: displayUrl(url) },
      memoryEnabled: services.settings.get().enabled,
      uptimeSeconds: Math.round((services.clock.now() - services.startedAt) / 1000),
      quarantined: services.quarantined,
    };
  });
}
