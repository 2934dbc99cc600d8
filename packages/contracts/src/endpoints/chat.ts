import {
  chatAdminThreadParamsSchema,
  chatAppFaceSchema,
  chatMessageInputSchema,
  chatMessages,
  chatReplySchema,
  chatSlugParamsSchema,
  chatThreadCreatedSchema,
  chatThreadListSchema,
  chatThreadParamsSchema,
  chatThreadSchema,
  chatUnlockSchema,
  idParamsSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

const publicErrors = {
  401: `${chatMessages.signIn}, or: ${chatMessages.password}`,
  404: chatMessages.notFound,
  503: chatMessages.off,
};

/**
 * Chat apps (docs/product-rules.md, Chat apps): the public routes of the hosted page and the widget,
 * which a visitor calls with the signed visitor cookie (a member's session token too on a members-only
 * app, the unlock cookie or `X-Chat-Password` on a password app), and the organization's view of an
 * app's threads.
 */
export const chatEndpoints = {
  face: defineEndpoint({
    method: 'GET',
    path: paths.chat.face,
    params: chatSlugParamsSchema,
    response: { 200: chatAppFaceSchema },
    summary: "A chat app's public face",
    tag: 'Chat',
    auth: 'public',
    errors: { 404: chatMessages.notFound },
  }),
  unlock: defineEndpoint({
    method: 'POST',
    path: paths.chat.unlock,
    params: chatSlugParamsSchema,
    body: chatUnlockSchema,
    summary: 'Unlock a password chat app (sets its cookie)',
    tag: 'Chat',
    auth: 'public',
    noContent: true,
    errors: { 401: chatMessages.wrongPassword, 404: chatMessages.notFound, 429: 'Too many wrong passwords' },
  }),
  createThread: defineEndpoint({
    method: 'POST',
    path: paths.chat.threads,
    params: chatSlugParamsSchema,
    response: { 201: chatThreadCreatedSchema },
    summary: 'Start a conversation',
    tag: 'Chat',
    auth: 'public',
    errors: publicErrors,
  }),
  thread: defineEndpoint({
    method: 'GET',
    path: paths.chat.thread,
    params: chatThreadParamsSchema,
    response: { 200: chatThreadSchema },
    summary: "A conversation's messages",
    tag: 'Chat',
    auth: 'public',
    errors: { ...publicErrors, 404: chatMessages.threadNotFound },
  }),
  send: defineEndpoint({
    method: 'POST',
    path: paths.chat.messages,
    params: chatThreadParamsSchema,
    body: chatMessageInputSchema,
    // With `Accept: text/event-stream` the answer is a stream of chatStreamEventSchema events instead.
    response: { 200: chatReplySchema },
    summary: 'Send a message (the reply as JSON, or streamed as Server-Sent Events)',
    tag: 'Chat',
    auth: 'public',
    errors: {
      ...publicErrors,
      402: chatMessages.capReached,
      404: chatMessages.threadNotFound,
      429: 'Too many messages from this visitor, or to this app (Retry-After says when to try again)',
    },
  }),
  threads: defineEndpoint({
    method: 'GET',
    path: paths.chat.adminThreads,
    params: idParamsSchema,
    response: { 200: chatThreadListSchema },
    summary: "A chat app's conversations",
    tag: 'Chat',
    auth: 'token',
  }),
  adminThread: defineEndpoint({
    method: 'GET',
    path: paths.chat.adminThread,
    params: chatAdminThreadParamsSchema,
    response: { 200: chatThreadSchema },
    summary: "One of a chat app's conversations",
    tag: 'Chat',
    auth: 'token',
  }),
  deleteThread: defineEndpoint({
    method: 'DELETE',
    path: paths.chat.adminThread,
    params: chatAdminThreadParamsSchema,
    summary: 'Delete a conversation (its runs stay in the run history)',
    tag: 'Chat',
    auth: 'token',
    role: 'admin',
  }),
};
