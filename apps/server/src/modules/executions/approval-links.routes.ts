import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { ApprovalLinksService } from './approval-links.service';

const { approvalLinks: api } = endpoints;

/** The emailed Approve and Reject links (public: the link's token is the credential, docs/security.md). */
export function approvalLinksRoutes(links: ApprovalLinksService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.get, async (request) => links.view(request.params.token));
    route(app, api.decide, async (request) => links.decide(request.params.token, request.body));
  };
}
