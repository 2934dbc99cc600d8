// The paths of `endpoints.approvalLinks` (index.ts says why they are apart from the descriptors).
export const get = '/api/approval-links/:token';
