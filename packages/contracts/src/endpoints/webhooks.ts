import { z } from 'zod';
import {
  idParamsSchema,
  webhookAcceptedSchema,
  webhookFinishedSchema,
  webhookQuerySchema,
  webhookSecretSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** A workflow's webhook: its secret (members), and the public trigger (the secret is the credential). */
export const webhooksEndpoints = {
  secret: defineEndpoint({
    method: 'GET',
    path: paths.webhooks.secret,
    params: idParamsSchema,
    response: { 200: webhookSecretSchema },
    summary: "Get a workflow's webhook secret",
    tag: 'Webhooks',
    auth: 'token',
  }),
  rotateSecret: defineEndpoint({
    method: 'POST',
    path: paths.webhooks.secret,
    params: idParamsSchema,
    response: { 200: webhookSecretSchema },
    summary: "Rotate a workflow's webhook secret",
    tag: 'Webhooks',
    auth: 'token',
  }),
  // Any body: a JSON object, other JSON, a form or text (described by hand in the OpenAPI document).
  trigger: defineEndpoint({
    method: 'POST',
    path: paths.webhooks.trigger,
    params: z.object({ workflowId: z.string() }),
    query: webhookQuerySchema,
    response: { 200: webhookFinishedSchema, 202: webhookAcceptedSchema },
    summary: 'Trigger a workflow by webhook',
    tag: 'Webhooks',
    auth: 'public',
    errors: {
      401:
        'Missing or wrong webhook secret, a refused signature (stale, replayed or wrong), or no such webhook ' +
        'workflow: the same answer for each.',
      409: 'The workflow is not active.',
      429: 'Too many calls for this workflow, or too many refused ones: retry after the `Retry-After` seconds.',
    },
  }),
};
