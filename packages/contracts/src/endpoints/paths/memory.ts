// The paths of `endpoints.memory` (index.ts says why they are apart from the descriptors).
export const list = '/api/agents/:id/memories';
export const forget = '/api/agents/:id/memories/:memoryId';
