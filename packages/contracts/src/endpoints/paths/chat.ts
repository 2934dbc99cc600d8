// The paths of `endpoints.chat` (index.ts says why they are apart from the descriptors).
export const face = '/api/chat/:slug';
export const unlock = '/api/chat/:slug/unlock';
export const threads = '/api/chat/:slug/threads';
export const thread = '/api/chat/:slug/threads/:threadId';
export const messages = '/api/chat/:slug/threads/:threadId/messages';
export const adminThreads = '/api/workflows/:id/chat-threads';
export const adminThread = '/api/workflows/:id/chat-threads/:threadId';
