// The paths of `endpoints.organizations` (index.ts says why they are apart from the descriptors).
export const stats = '/api/organizations/:orgId/stats';
export const activity = '/api/organizations/:orgId/activity';
export const analytics = '/api/organizations/:orgId/analytics';
export const get = '/api/organizations/:orgId';
export const members = '/api/organizations/:orgId/members';
export const member = '/api/organizations/:orgId/members/:userId';
export const invitations = '/api/organizations/:orgId/invitations';
export const revokeInvitation = '/api/organizations/:orgId/invitations/:id';
export const verificationLink = '/api/organizations/:orgId/invitations/:id/verification-link';
export const previewInvitation = '/api/invitations/:token';
export const acceptInvitation = '/api/invitations/:token/accept';
