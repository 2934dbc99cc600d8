import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../platform/database-unavailable';
import { route } from '../../platform/route';
import type { SystemService } from './system.service';

const { system: api } = endpoints;

export function systemRoutes(system: SystemService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.health, async (_request, reply) =>
      (await system.health())
        ? { status: 'ok' }
        : reply
            .status(503)
            .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
            .send({ status: 'unavailable', message: 'The database is not answering' }),
    );

    route(app, api.status, async (request) => system.status(request.auth.organizationId));
  };
}
