import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages, teamMessages } from '@crewline/contracts';
import { NotFoundError, UnauthorizedError } from '../../platform/errors';
import type { AuthContext, AuthService } from './auth.service';
import type { Membership } from './auth.repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes are private by default; only these few answer without a token. */
    public?: boolean;
    /**
     * The route also serves a session whose user left or was removed from its organization (listing
     * their organizations, switching, logout, accepting an invitation). Every other private route
     * answers such a session 404, as for another tenant's data.
     */
    membershipOptional?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
    account: Membership;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/** Every /api route requires a live session unless it is declared `config: { public: true }`. */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.decorateRequest('account', null as unknown as Membership);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.is404 || request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError(messages.notSignedIn);
    const result = await auth.authenticateSession(token);
    if (!result) throw new UnauthorizedError(messages.sessionExpired);
    // Removed from the session's organization: its data is gone for them, the session is not.
    if (!result.member && !request.routeOptions.config.membershipOptional) {
      throw new NotFoundError(teamMessages.organizationNotFound);
    }
    request.auth = result.context;
    request.account = result.session;
  });
}

/** Tenant check for routes that name an organization: another organization's id is simply not found. */
export function requireOwnOrganization(request: FastifyRequest, orgId: string): string {
  if (orgId !== request.auth.organizationId) throw new NotFoundError('Organization not found');
  return orgId;
}
