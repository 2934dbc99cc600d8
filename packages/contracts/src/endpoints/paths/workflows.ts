// The paths of `endpoints.workflows` (index.ts says why they are apart from the descriptors).
export const list = '/api/workflows';
export const get = '/api/workflows/:id';
export const versions = '/api/workflows/:id/versions';
export const version = '/api/workflows/:id/versions/:version';
export const restore = '/api/workflows/:id/versions/:version/restore';
export const testNode = '/api/workflows/:id/nodes/:nodeId/test';
