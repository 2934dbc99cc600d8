import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentKnowledgeBasesSchema, idParamsSchema, setAgentKnowledgeBasesSchema } from '@crewline/contracts';
import type { AgentKnowledgeService } from './agent-knowledge.service';

/** The agent's knowledge bases (its Knowledge section): who may edit the agent may pick them. */
export function agentKnowledgeRoutes(knowledge: AgentKnowledgeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/agents/:id/knowledge-bases',
      { schema: { params: idParamsSchema, response: { 200: agentKnowledgeBasesSchema } } },
      async (request) => ({
        knowledgeBases: await knowledge.list(request.auth.organizationId, request.params.id),
      }),
    );

    app.put(
      '/api/agents/:id/knowledge-bases',
      {
        schema: {
          params: idParamsSchema,
          body: setAgentKnowledgeBasesSchema,
          response: { 200: agentKnowledgeBasesSchema },
        },
      },
      async (request) => ({
        knowledgeBases: await knowledge.set(
          request.auth.organizationId,
          request.auth.userId,
          request.params.id,
          request.body.knowledgeBaseIds,
        ),
      }),
    );
  };
}
