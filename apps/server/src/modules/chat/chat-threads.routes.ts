import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { ChatService } from './chat.service';

const { chat: api } = endpoints;

/**
 * The organization's view of a chat app's threads (the workflow's): members read them, owners and
 * admins delete one (its runs stay in the run history). Another organization's workflow is not found.
 */
export function chatThreadsRoutes(chat: ChatService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.threads, async (request) => chat.threads(request.auth.organizationId, request.params.id));

    route(app, api.adminThread, async (request) =>
      chat.workflowThread(request.auth.organizationId, request.params.id, request.params.threadId),
    );

    route(app, api.deleteThread, async (request, reply) => {
      await chat.deleteThread(request.auth.organizationId, request.params.id, request.params.threadId);
      return reply.status(204).send();
    });
  };
}
