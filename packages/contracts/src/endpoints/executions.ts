import { z } from 'zod';
import {
  executeWorkflowSchema,
  executionListFiltersSchema,
  executionListMessages,
  executionListWindowIsValid,
  executionSchema,
  executionSummarySchema,
  idParamsSchema,
  retryExecutionSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Runs per page of GET /api/executions: by default, and at most. */
export const EXECUTIONS_PAGE_DEFAULT = 50;
export const EXECUTIONS_PAGE_MAX = 200;

/** The run list's rule over its window: "from" before "to" (the error lands on `to`). */
export const withListWindowRule = <S extends z.ZodType<{ from?: string; to?: string }>>(schema: S) =>
  schema.refine(executionListWindowIsValid, { message: executionListMessages.window, path: ['to'] });

/**
 * The run list's query before its window rule. `cursor` is opaque to clients (the `x-next-cursor`
 * header of the page before); the server also decodes it, and answers 400 to one it did not make.
 */
export const executionListQueryObject = executionListFiltersSchema.extend({
  limit: z.coerce.number().int().min(1).max(EXECUTIONS_PAGE_MAX).default(EXECUTIONS_PAGE_DEFAULT),
  cursor: z.string().optional(),
});
export const executionListQuerySchema = withListWindowRule(executionListQueryObject);

// A bodiless POST arrives as null: everything in the execute and retry bodies is optional.
const executeBody = executeWorkflowSchema
  .nullish()
  .transform((body) => executeWorkflowSchema.parse(body ?? {}));
const retryBody = retryExecutionSchema.nullish().transform((body) => retryExecutionSchema.parse(body ?? {}));

/** Starting, following, cancelling and retrying runs. */
export const executionsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.executions.list,
    query: executionListQuerySchema,
    response: { 200: z.array(executionSummarySchema) },
    summary: 'List runs',
    tag: 'Executions',
    auth: 'token',
  }),
  get: defineEndpoint({
    method: 'GET',
    path: paths.executions.get,
    params: idParamsSchema,
    response: { 200: executionSchema },
    summary: 'Get a run',
    tag: 'Executions',
    auth: 'token',
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: paths.executions.cancel,
    params: idParamsSchema,
    response: { 200: executionSchema },
    summary: 'Cancel a run',
    tag: 'Executions',
    auth: 'token',
  }),
  retry: defineEndpoint({
    method: 'POST',
    path: paths.executions.retry,
    params: idParamsSchema,
    body: retryBody,
    response: { 202: executionSchema },
    summary: 'Retry a run',
    tag: 'Executions',
    auth: 'token',
    planLimited: true,
  }),
  execute: defineEndpoint({
    method: 'POST',
    path: paths.executions.execute,
    params: idParamsSchema,
    body: executeBody,
    response: { 202: executionSchema },
    summary: 'Run a workflow',
    tag: 'Executions',
    auth: 'token',
    planLimited: true,
  }),
};
