import { z } from 'zod';
import {
  createWorkflowSchema,
  idParamsSchema,
  nodeTestMessages,
  nodeTestParamsSchema,
  nodeTestResultSchema,
  testNodeSchema,
  evaluationRunningSchema,
  updateWorkflowSchema,
  workflowSchema,
  workflowVersionParamsSchema,
  workflowVersionSchema,
  workflowVersionSummarySchema,
  workflowWithWarningsSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Workflows and their saved versions. */
export const workflowsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.workflows.list,
    response: { 200: z.array(workflowSchema) },
    summary: 'List workflows',
    tag: 'Workflows',
    auth: 'token',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: paths.workflows.list,
    body: createWorkflowSchema,
    response: { 201: workflowWithWarningsSchema },
    summary: 'Create a workflow',
    tag: 'Workflows',
    auth: 'token',
  }),
  get: defineEndpoint({
    method: 'GET',
    path: paths.workflows.get,
    params: idParamsSchema,
    response: { 200: workflowWithWarningsSchema },
    summary: 'Get a workflow',
    tag: 'Workflows',
    auth: 'token',
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: paths.workflows.get,
    params: idParamsSchema,
    body: updateWorkflowSchema,
    response: { 200: workflowWithWarningsSchema, 202: evaluationRunningSchema },
    summary: 'Update a workflow',
    tag: 'Workflows',
    auth: 'token',
    errors: {
      403: 'Only owners may override the activation gate (`gateOverride`).',
      409: 'The status change is not allowed (only an active workflow pauses, and a paused one only resumes), or the activation gate\'s evaluation failed: `{ code: "evaluation_failed", passRate, minPassRate, evalRunId, failedItems }`.',
    },
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: paths.workflows.get,
    params: idParamsSchema,
    summary: 'Delete a workflow',
    tag: 'Workflows',
    auth: 'token',
  }),
  versions: defineEndpoint({
    method: 'GET',
    path: paths.workflows.versions,
    params: idParamsSchema,
    response: { 200: z.array(workflowVersionSummarySchema) },
    summary: "List a workflow's versions",
    tag: 'Workflows',
    auth: 'token',
  }),
  version: defineEndpoint({
    method: 'GET',
    path: paths.workflows.version,
    params: workflowVersionParamsSchema,
    response: { 200: workflowVersionSchema },
    summary: 'Get a workflow version',
    tag: 'Workflows',
    auth: 'token',
  }),
  restore: defineEndpoint({
    method: 'POST',
    path: paths.workflows.restore,
    params: workflowVersionParamsSchema,
    response: { 200: workflowWithWarningsSchema },
    summary: 'Restore a workflow version',
    tag: 'Workflows',
    auth: 'token',
  }),
  testNode: defineEndpoint({
    method: 'POST',
    path: paths.workflows.testNode,
    params: nodeTestParamsSchema,
    // A bodiless POST arrives as null: tested with the newest run's data.
    body: testNodeSchema.nullish().transform((body) => testNodeSchema.parse(body ?? {})),
    response: { 200: nodeTestResultSchema },
    summary: 'Test one node',
    tag: 'Workflows',
    // Whoever may edit the workflow may test its nodes (a test may call a model or a tool).
    auth: 'token',
    errors: {
      400: 'The node is not a step (Start, End and Note nodes never run), or `node` is another node.',
      404: 'No such workflow in the organization, or no such node in it.',
      409: nodeTestMessages.noRunYet,
    },
  }),
};
