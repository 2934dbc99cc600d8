// The paths of `endpoints.costs` (index.ts says why they are apart from the descriptors).
// The caller's own organization (its session's or API key's), so no id in the path.
export const usage = '/api/usage/costs';
export const organizationBudget = '/api/organization/budget';
