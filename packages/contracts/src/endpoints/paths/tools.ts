// The paths of `endpoints.tools` (index.ts says why they are apart from the descriptors).
export const list = '/api/tools';
export const tool = '/api/tools/:id';
export const usage = '/api/tools/:id/usage';
export const test = '/api/tools/:id/test';
export const agentTools = '/api/agents/:agentId/tools';
export const link = '/api/agents/:agentId/tools/:toolId';
export const mcpTools = '/api/tools/:id/mcp-tools';
export const mcpRefresh = '/api/tools/:id/mcp-refresh';
export const mcpAuthorize = '/api/tools/:id/mcp-authorize';
export const mcpOauthCallback = '/api/mcp-oauth/callback';
