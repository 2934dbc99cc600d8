import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requireOwnOrganization } from '../../platform/auth/auth-context';
import type { OrganizationsService } from './organizations.service';

const { organizations: api } = endpoints;

export function organizationsRoutes(organizations: OrganizationsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.stats, async (request) =>
      organizations.stats(requireOwnOrganization(request, request.params.orgId)),
    );

    route(app, api.activity, async (request) =>
      organizations.activity(requireOwnOrganization(request, request.params.orgId)),
    );

    route(app, api.analytics, async (request) =>
      organizations.analytics(
        requireOwnOrganization(request, request.params.orgId),
        request.query.days,
        request.query.tz,
      ),
    );
  };
}
