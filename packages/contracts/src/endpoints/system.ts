import { systemStatusSchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Health and status. `health` answers without a schema (described by hand in the OpenAPI document). */
export const systemEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: paths.system.health,
    summary: 'Health check',
    tag: 'System',
    auth: 'public',
  }),
  status: defineEndpoint({
    method: 'GET',
    path: paths.system.status,
    response: { 200: systemStatusSchema },
    summary: 'System status',
    tag: 'System',
    auth: 'token',
  }),
};
