import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXECUTIONS_NEXT_CURSOR_HEADER } from '@crewline/contracts';
import { endpoints, executionListQueryObject, withListWindowRule } from '@crewline/contracts/endpoints';
import { z } from 'zod';
import { route } from '../../platform/route';
import type { ExecutionsCursor } from './executions.repository';
import type { ExecutionsService } from './executions.service';

const { executions: api } = endpoints;

/**
 * The list's cursor is opaque to clients: base64url of the last run's exact created_at and id. A
 * cursor that does not decode to those is a bad request, never an empty page.
 */
const cursorPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

function encodeExecutionsCursor(cursor: ExecutionsCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

function decodeExecutionsCursor(value: string): ExecutionsCursor | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [at, id] = decoded as unknown[];
    if (typeof at !== 'string' || !cursorPattern.test(at)) return undefined;
    if (!z.string().uuid().safeParse(id).success) return undefined;
    return { at, id: id as string };
  } catch {
    return undefined;
  }
}

/** The descriptor's query, with the cursor decoded: one this server did not make is a 400, never an empty page. */
const listQuery = withListWindowRule(
  executionListQueryObject.extend({
    cursor: z
      .string()
      .transform((value, ctx) => {
        const cursor = decodeExecutionsCursor(value);
        if (!cursor) ctx.addIssue({ code: 'custom', message: 'Invalid cursor' });
        return cursor;
      })
      .optional(),
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
        if (page.next) reply.header(EXECUTIONS_NEXT_CURSOR_HEADER, encodeExecutionsCursor(page.next));
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
