import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemStatusSchema } from '@crewline/contracts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../platform/database-unavailable';
import type { SystemService } from './system.service';

export function systemRoutes(system: SystemService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/health', { config: { public: true } }, async (_request, reply) =>
      (await system.health())
        ? { status: 'ok' }
        : reply
            .status(503)
            .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
            .send({ status: 'unavailable', message: 'The database is not answering' }),
    );

    app.get('/api/system/status', { schema: { response: { 200: systemStatusSchema } } }, async (request) =>
      system.status(request.auth.organizationId),
    );
  };
}
