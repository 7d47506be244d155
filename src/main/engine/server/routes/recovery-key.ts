import type { FastifyInstance } from 'fastify';
import type { RecoveryKeyResponse } from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';

/**
 * "Show recovery key" in Settings (DESIGN §4). Behind the access token like every route but
 * /health; never cached, never logged.
 */
export function registerRecoveryKeyRoutes(app: FastifyInstance, services: EngineServices): void {
  app.get('/memory/recovery-key', async (_request, reply): Promise<RecoveryKeyResponse> => {
    reply.header('cache-control', 'no-store');
    return { recovery_key: await services.recoveryKey() };
  });
}
