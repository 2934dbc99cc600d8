import type { FastifyRequest } from 'fastify';

/**
 * Who made a change and from where, as the audit log records it (modules/audit): the signed-in user
 * (or the API key's creator) and the request's address (Fastify's `request.ip`, which honours
 * TRUST_PROXY). A change nobody asked for (a payment provider's webhook) has neither.
 */
export type RequestActor = {
  userId: string | null;
  ip: string | null;
  /** The organization API key the change was made with (a script's, not the person's own hands). */
  apiKey?: { id: string; name: string };
};

/** The actor of an authenticated request: always a user. */
export type UserActor = RequestActor & { userId: string };

/** The actor of an authenticated request (its auth guard has set `request.auth`). */
export const requestActor = (request: FastifyRequest): UserActor => {
  const { userId, apiKeyId, apiKeyName } = request.auth;
  return {
    userId,
    ip: request.ip || null,
    ...(apiKeyId ? { apiKey: { id: apiKeyId, name: apiKeyName ?? '' } } : {}),
  };
};

/** A change made by the system itself. */
export const systemActor: RequestActor = { userId: null, ip: null };
