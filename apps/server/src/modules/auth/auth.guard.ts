import type { FastifyInstance } from 'fastify';
import { apiKeyMessages, messages, teamMessages } from '@crewline/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/errors';
import { bearerToken, isApiKey, type AuthContext } from '../../platform/auth/auth-context';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import type { AuthService } from './auth.service';
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
    /**
     * Only a signed-in user may call the route, never an API key (the user's own account and
     * sessions, members, connections, billing, keys): a key answers 403 here.
     */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
    account: Membership;
  }
}

/**
 * Every /api route requires a live session, or an organization API key, unless it is declared
 * `config: { public: true }`. A key acts with member powers on the routes not marked `sessionOnly`
 * or `membershipOptional`; `request.account` (the signed-in user's membership) is only set for
 * sessions, and only those routes read it.
 */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService, apiKeys: ApiKeysService) {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.decorateRequest('account', null as unknown as Membership);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.is404 || request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError(messages.notSignedIn);
    if (isApiKey(token)) {
      const context = await apiKeys.authenticate(token);
      if (!context) throw new UnauthorizedError(apiKeyMessages.invalid);
      const { sessionOnly, membershipOptional } = request.routeOptions.config;
      if (sessionOnly || membershipOptional) throw new ForbiddenError(apiKeyMessages.sessionOnly);
      request.auth = context;
      return;
    }
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
