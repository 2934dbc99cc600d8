// The paths of `endpoints.templates` (index.ts says why they are apart from the descriptors).
export const list = '/api/templates';
export const library = '/api/templates/library';
export const seed = '/api/templates/seed';
export const createWorkflow = '/api/templates/:templateId/create';
export const createAgent = '/api/templates/agents/:templateId/create';
export const saveWorkflow = '/api/workflows/:id/save-as-template';
export const saveAgent = '/api/agents/:id/save-as-template';
