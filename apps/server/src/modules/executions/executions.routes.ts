import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EXECUTIONS_NEXT_CURSOR_HEADER,
  executeWorkflowSchema,
  executionListFiltersSchema,
  executionListMessages,
  executionListWindowIsValid,
  executionSchema,
  executionSummarySchema,
  idParamsSchema,
  retryExecutionSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import type { ExecutionsCursor } from './executions.repository';
import { EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX, type ExecutionsService } from './executions.service';

/**
 * The list's cursor is opaque to clients: base64url of the last run's exact created_at and id. A
 * cursor that does not decode to those is a bad request, never an empty page.
 */
const cursorPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

export function encodeExecutionsCursor(cursor: ExecutionsCursor): string {
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

const listQuery = executionListFiltersSchema
  .extend({
    limit: z.coerce.number().int().min(1).max(EXECUTIONS_PAGE_MAX).default(EXECUTIONS_PAGE_DEFAULT),
    cursor: z
      .string()
      .transform((value, ctx) => {
        const cursor = decodeExecutionsCursor(value);
        if (!cursor) ctx.addIssue({ code: 'custom', message: 'Invalid cursor' });
        return cursor;
      })
      .optional(),
  })
  .refine(executionListWindowIsValid, { message: executionListMessages.window, path: ['to'] });

// A bodiless POST arrives as null: everything in the execute body is optional.
const executeBody = executeWorkflowSchema
  .nullish()
  .transform((body) => executeWorkflowSchema.parse(body ?? {}));

const retryBody = retryExecutionSchema.nullish().transform((body) => retryExecutionSchema.parse(body ?? {}));

export function executionsRoutes(executions: ExecutionsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/executions',
      { schema: { querystring: listQuery, response: { 200: z.array(executionSummarySchema) } } },
      async (request, reply) => {
        const { cursor, ...query } = request.query;
        const page = await executions.list(request.auth.organizationId, { ...query, after: cursor });
        if (page.next) reply.header(EXECUTIONS_NEXT_CURSOR_HEADER, encodeExecutionsCursor(page.next));
        return page.items;
      },
    );
    app.get(
      '/api/executions/:id',
      { schema: { params: idParamsSchema, response: { 200: executionSchema } } },
      async (request) => executions.get(request.auth.organizationId, request.params.id),
    );
    app.post(
      '/api/executions/:id/cancel',
      { schema: { params: idParamsSchema, response: { 200: executionSchema } } },
      async (request) => executions.cancel(request.auth.organizationId, request.params.id),
    );
    app.post(
      '/api/executions/:id/retry',
      { schema: { params: idParamsSchema, body: retryBody, response: { 202: executionSchema } } },
      async (request, reply) =>
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
    app.post(
      '/api/workflows/:id/execute',
      { schema: { params: idParamsSchema, body: executeBody, response: { 202: executionSchema } } },
      async (request, reply) =>
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
