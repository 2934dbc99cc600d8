// The paths of `endpoints.audit` (index.ts says why they are apart from the descriptors).
export const list = '/api/audit';
export const csv = '/api/audit.csv';
