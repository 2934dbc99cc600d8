import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX } from '@crewline/contracts';
import { NotFoundError } from '../errors';

/**
 * Who a request acts as, set by the auth guard (modules/auth/auth.guard.ts) from a session or an
 * organization API key. It lives here, not in a module, because every module's routes read it.
 */
export type AuthContext = {
  sessionId: string;
  userId: string;
  organizationId: string;
  role: string;
  /** Set when the call is made with an organization API key (modules/api-keys) instead of a session. */
  apiKeyId?: string;
  /** That key's name when the call was made (the audit log tells a script's change by it). */
  apiKeyName?: string;
};

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/** Whether a bearer token is an organization API key (they all start with API_KEY_PREFIX), not a session. */
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** Tenant check for routes that name an organization: another organization's id is simply not found. */
export function requireOwnOrganization(request: FastifyRequest, orgId: string): string {
  if (orgId !== request.auth.organizationId) throw new NotFoundError('Organization not found');
  return orgId;
}
