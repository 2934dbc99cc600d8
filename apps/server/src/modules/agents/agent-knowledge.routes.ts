import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { AgentKnowledgeService } from './agent-knowledge.service';

const { agents: api } = endpoints;

/** The agent's knowledge bases (its Knowledge section): who may edit the agent may pick them. */
export function agentKnowledgeRoutes(knowledge: AgentKnowledgeService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.knowledgeBases, async (request) => ({
      knowledgeBases: await knowledge.list(request.auth.organizationId, request.params.id),
    }));

    route(app, api.setKnowledgeBases, async (request) => ({
      knowledgeBases: await knowledge.set(
        request.auth.organizationId,
        request.auth.userId,
        request.params.id,
        request.body.knowledgeBaseIds,
      ),
    }));
  };
}
