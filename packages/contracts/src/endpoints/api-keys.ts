import { z } from 'zod';
import {
  apiKeyParamsSchema,
  apiKeySchema,
  createApiKeySchema,
  createdApiKeySchema,
  orgIdParamsSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Settings → API keys: owners and admins, signed in (a key never manages keys). */
export const apiKeysEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.apiKeys.list,
    params: orgIdParamsSchema,
    response: { 200: z.array(apiKeySchema) },
    summary: 'List API keys',
    tag: 'API keys',
    auth: 'session',
    role: 'admin',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: paths.apiKeys.list,
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
    path: paths.apiKeys.revoke,
    params: apiKeyParamsSchema,
    summary: 'Revoke an API key',
    tag: 'API keys',
    auth: 'session',
    role: 'admin',
  }),
};
