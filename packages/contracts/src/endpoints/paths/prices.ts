// The paths of `endpoints.prices` (index.ts says why they are apart from the descriptors).
export const list = '/api/prices';
export const remove = '/api/prices/:provider/:model';
