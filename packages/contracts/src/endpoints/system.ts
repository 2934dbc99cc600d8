import { systemStatusSchema } from '../index';
import { defineEndpoint } from './define-endpoint';

/** Health and status. `health` answers without a schema (described by hand in the OpenAPI document). */
export const systemEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: '/api/health',
    summary: 'Health check',
    tag: 'System',
    auth: 'public',
  }),
  status: defineEndpoint({
    method: 'GET',
    path: '/api/system/status',
    response: { 200: systemStatusSchema },
    summary: 'System status',
    tag: 'System',
    auth: 'token',
  }),
};
