import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityItemSchema,
  analyticsQuerySchema,
  analyticsSchema,
  organizationStatsSchema,
  orgIdParamsSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import { requireOwnOrganization } from '../auth/auth.guard';
import type { OrganizationsService } from './organizations.service';

export function organizationsRoutes(organizations: OrganizationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organizations/:orgId/stats',
      { schema: { params: orgIdParamsSchema, response: { 200: organizationStatsSchema } } },
      async (request) => organizations.stats(requireOwnOrganization(request, request.params.orgId)),
    );

    app.get(
      '/api/organizations/:orgId/activity',
      {
        schema: {
          params: orgIdParamsSchema,
          response: { 200: z.object({ items: z.array(activityItemSchema) }) },
        },
      },
      async (request) => organizations.activity(requireOwnOrganization(request, request.params.orgId)),
    );

    app.get(
      '/api/organizations/:orgId/analytics',
      {
        schema: {
          params: orgIdParamsSchema,
          querystring: analyticsQuerySchema,
          response: { 200: analyticsSchema },
        },
      },
      async (request) =>
        organizations.analytics(
          requireOwnOrganization(request, request.params.orgId),
          request.query.days,
          request.query.tz,
        ),
    );
  };
}
