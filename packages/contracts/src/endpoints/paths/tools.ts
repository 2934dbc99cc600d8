// The paths of `endpoints.tools` (index.ts says why they are apart from the descriptors).
export const list = '/api/tools';
export const tool = '/api/tools/:id';
export const usage = '/api/tools/:id/usage';
export const test = '/api/tools/:id/test';
export const agentTools = '/api/agents/:agentId/tools';
export const link = '/api/agents/:agentId/tools/:toolId';
