// The paths of `endpoints.agents` (index.ts says why they are apart from the descriptors).
export const list = '/api/agents';
export const get = '/api/agents/:id';
export const usage = '/api/agents/:id/usage';
export const test = '/api/agents/:id/test';
export const chat = '/api/agents/:id/chat';
export const knowledgeBases = '/api/agents/:id/knowledge-bases';
