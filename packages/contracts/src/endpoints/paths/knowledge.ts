// The paths of `endpoints.knowledge` (index.ts says why they are apart from the descriptors).
export const list = '/api/knowledge-bases';
export const get = '/api/knowledge-bases/:id';
export const usage = '/api/knowledge-bases/:id/usage';
export const documents = '/api/knowledge-bases/:id/documents';
export const removeDocument = '/api/knowledge-bases/:id/documents/:docId';
export const search = '/api/knowledge-bases/:id/search';
