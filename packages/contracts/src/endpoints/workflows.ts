import { z } from 'zod';
import {
  createWorkflowSchema,
  idParamsSchema,
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
    response: { 200: workflowWithWarningsSchema },
    summary: 'Update a workflow',
    tag: 'Workflows',
    auth: 'token',
    errors: {
      409: 'The status change is not allowed: only an active workflow pauses, and a paused one only resumes.',
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
};
