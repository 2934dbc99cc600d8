import type { FastifyInstance } from 'fastify';
import { hasRole, roleRequired, type OrganizationRole } from '@crewline/contracts';
import { ForbiddenError } from '../../platform/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The weakest organization role the route needs (docs/security.md, Tenancy and roles); none means
     * any member. Checked once for every route by registerRoleGuard, right after the auth guard, so
     * the route inventory knows each route's minimum role.
     */
    role?: OrganizationRole;
  }
}

/**
 * Answers 403 `{ message }` naming the role needed when the session's role (read with the session on
 * every request, so a role change counts from the next request) is below the route's `config.role`.
 * Runs after the auth guard and before the body is read or validated.
 */
export function registerRoleGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const needed = request.routeOptions.config.role;
    if (!needed || request.is404 || !request.auth) return;
    if (!hasRole(request.auth.role, needed)) throw new ForbiddenError(roleRequired(needed));
  });
}
