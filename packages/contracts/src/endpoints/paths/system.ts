// The paths of `endpoints.system` (index.ts says why they are apart from the descriptors).
export const health = '/api/health';
export const status = '/api/system/status';
