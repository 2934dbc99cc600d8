// The paths of `endpoints.approvals` (index.ts says why they are apart from the descriptors).
export const list = '/api/approvals';
export const get = '/api/approvals/:id';
export const decide = '/api/approvals/:id/decision';
