import type { FastifyInstance } from 'fastify';
import type { PublicSettings } from '../../../../shared/settings.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { EngineServices } from '../../services.ts';
import { toPublicSettings } from '../../settings-service.ts';

export function registerSettingsRoutes(app: FastifyInstance, services: EngineServices): void {
  app.get('/settings', async (): Promise<PublicSettings> =>
    toPublicSettings(services.settings.get()),
  );
  app.put('/settings', async (request): Promise<PublicSettings> => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new CairnError(
        ErrorCode.ValidationFailed,
        'The body must be a JSON object of settings.',
      );
    }
    // The service validates (ranges, unknown keys) and keeps omitted provider API keys.
    return toPublicSettings(services.settings.update(body as never));
  });
}
