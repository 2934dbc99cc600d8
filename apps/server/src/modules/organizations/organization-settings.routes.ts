import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { OrganizationSettingsService } from './organization-settings.service';

const { organizationSettings: api } = endpoints;

/** The caller's own organization's settings (its session's or API key's): no id in the path. */
export function organizationSettingsRoutes(settings: OrganizationSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.get, async (request) => settings.get(request.auth.organizationId));

    // Admins and owners (the descriptor's role): a member's call is a 403 naming it.
    route(app, api.update, async (request) => settings.update(request.auth.organizationId, request.body));
  };
}
