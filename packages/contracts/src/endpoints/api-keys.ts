import { z } from 'zod';
import {
  apiKeyParamsSchema,
  apiKeySchema,
  createApiKeySchema,
  createdApiKeySchema,
  orgIdParamsSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';

/** Settings → API keys: owners and admins, signed in (a key never manages keys). */
export const apiKeysEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/organizations/:orgId/api-keys',
    params: orgIdParamsSchema,
    response: { 200: z.array(apiKeySchema) },
    summary: 'List API keys',
    tag: 'API keys',
    auth: 'session',
    role: 'admin',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/organizations/:orgId/api-keys',
    params: orgIdParamsSchema,
    body: createApiKeySchema,
    response: { 201: createdApiKeySchema },
    summary: 'Create an API key',
    tag: 'API keys',
    auth: 'session',
    role: 'admin',
    planLimited: true,
  }),
  revoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/organizations/:orgId/api-keys/:id',
    params: apiKeyParamsSchema,
    summary: 'Revoke an API key',
    tag: 'API keys',
    auth: 'session',
    role: 'admin',
  }),
};
