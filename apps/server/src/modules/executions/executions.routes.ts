import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXECUTIONS_NEXT_CURSOR_HEADER } from '@crewline/contracts';
import { endpoints, executionListQueryObject, withListWindowRule } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { encodeTimeCursor, timeCursorField } from '../../platform/time-cursor';
import type { ExecutionsService } from './executions.service';

const { executions: api } = endpoints;

/** The descriptor's query, with the cursor decoded: one this server did not make is a 400, never an empty page. */
const listQuery = withListWindowRule(
  executionListQueryObject.extend({
    cursor: timeCursorField,
  }),
);

export function executionsRoutes(executions: ExecutionsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(
      app,
      api.list,
      async (request, reply) => {
        const { cursor, ...query } = request.query;
        const page = await executions.list(request.auth.organizationId, { ...query, after: cursor });
        if (page.next) reply.header(EXECUTIONS_NEXT_CURSOR_HEADER, encodeTimeCursor(page.next));
        return page.items;
      },
      { schema: { querystring: listQuery } },
    );
    route(app, api.get, async (request) => executions.get(request.auth.organizationId, request.params.id));
    route(app, api.cancel, async (request) =>
      executions.cancel(request.auth.organizationId, request.params.id),
    );
    route(app, api.retry, async (request, reply) =>
      reply
        .status(202)
        .send(
          await executions.retry(
            request.auth.organizationId,
            request.auth.userId,
            request.params.id,
            request.body,
          ),
        ),
    );
    route(app, api.execute, async (request, reply) =>
      reply
        .status(202)
        .send(
          await executions.execute(
            request.auth.organizationId,
            request.auth.userId,
            request.params.id,
            request.body,
          ),
        ),
    );
  };
}
