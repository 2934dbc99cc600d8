// The paths of `endpoints.connections` (index.ts says why they are apart from the descriptors).
export const list = '/api/tools/configurations';
export const update = '/api/tools/configurations/:id';
export const providers = '/api/llm/providers';
