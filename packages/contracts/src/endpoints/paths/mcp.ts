// The paths of `endpoints.mcp` (index.ts says why they are apart from the descriptors).
export const publishing = '/api/workflows/:id/publishing';
export const server = '/api/mcp-server';
