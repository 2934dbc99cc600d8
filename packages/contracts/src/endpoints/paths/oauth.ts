// The paths of `endpoints.oauth` (index.ts says why they are apart from the descriptors).
export const consent = '/api/oauth/consent';
export const grants = '/api/oauth/grants';
export const revokeGrant = '/api/oauth/grants/:id';
