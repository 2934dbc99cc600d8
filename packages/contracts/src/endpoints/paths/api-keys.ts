// The paths of `endpoints.apiKeys` (index.ts says why they are apart from the descriptors).
export const list = '/api/organizations/:orgId/api-keys';
export const revoke = '/api/organizations/:orgId/api-keys/:id';
