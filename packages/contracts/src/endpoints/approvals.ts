import { z } from 'zod';
import {
  approvalDecisionRequestSchema,
  approvalListQuerySchema,
  approvalMessages,
  approvalParamsSchema,
  approvalSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** People in the loop: what waits for a decision, and deciding it. */
export const approvalsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.approvals.list,
    query: approvalListQuerySchema,
    response: { 200: z.array(approvalSchema) },
    summary: 'List approvals',
    tag: 'Approvals',
    auth: 'token',
  }),
  get: defineEndpoint({
    method: 'GET',
    path: paths.approvals.get,
    params: approvalParamsSchema,
    response: { 200: approvalSchema },
    summary: 'Get an approval',
    tag: 'Approvals',
    auth: 'token',
  }),
  decide: defineEndpoint({
    method: 'POST',
    path: paths.approvals.decide,
    params: approvalParamsSchema,
    body: approvalDecisionRequestSchema,
    response: { 200: approvalSchema },
    summary: 'Approve or reject',
    tag: 'Approvals',
    auth: 'token',
    errors: {
      400: 'A required form field is missing or a field is invalid (`errors` names it)',
      403: approvalMessages.notAllowed,
      409: approvalMessages.decided,
    },
  }),
};
