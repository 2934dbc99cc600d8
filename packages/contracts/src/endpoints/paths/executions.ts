// The paths of `endpoints.executions` (index.ts says why they are apart from the descriptors).
export const list = '/api/executions';
export const get = '/api/executions/:id';
export const cancel = '/api/executions/:id/cancel';
export const retry = '/api/executions/:id/retry';
export const execute = '/api/workflows/:id/execute';
