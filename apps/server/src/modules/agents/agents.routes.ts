import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AGENT_CHAT_CONTENT_TYPE, testAgentSchema, type AgentChatLine } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { describeError } from '../../platform/logger';
import { route } from '../../platform/route';
import type { AgentsService } from './agents.service';

const { agents: api } = endpoints;

export function agentsRoutes(agents: AgentsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => agents.list(request.auth.organizationId));

    route(app, api.create, async (request) =>
      agents.create(request.auth.organizationId, request.auth.userId, request.body),
    );

    route(app, api.get, async (request) => agents.get(request.auth.organizationId, request.params.id));

    route(app, api.update, async (request) =>
      agents.update(request.auth.organizationId, request.auth.userId, request.params.id, request.body),
    );

    route(app, api.test, async (request) =>
      agents.test(
        request.auth.organizationId,
        request.params.id,
        (request.body ?? testAgentSchema.parse({})).input,
      ),
    );

    // The playground. Who may call it is the test's rule (any member, an API key too). The agent is
    // read first, so an unknown one is a 404 JSON answer; then the answer streams as NDJSON lines
    // (agentChatLineSchema, documented in platform/openapi.ts), each written as it happens.
    route(app, api.chat, async (request, reply) => {
      const { organizationId } = request.auth;
      const agent = await agents.get(organizationId, request.params.id);
      const lines = new PassThrough();
      const send = (line: AgentChatLine) => {
        if (!lines.destroyed && !lines.writableEnded) lines.write(`${JSON.stringify(line)}\n`);
      };
      // The client went away before the answer ended (Stop, a closed tab): the model call stops too.
      const abort = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      void agents
        .chat(organizationId, agent, request.body.messages, { send, signal: abort.signal })
        .catch((error: unknown) => {
          request.log.error(
            { err: error instanceof Error ? describeError(error) : String(error) },
            'agent chat failed',
          );
          send({ type: 'error', error: 'The agent could not answer: something went wrong on our side.' });
        })
        .finally(() => {
          if (!lines.destroyed) lines.end();
        });
      return (
        reply
          .header('content-type', `${AGENT_CHAT_CONTENT_TYPE}; charset=utf-8`)
          .header('cache-control', 'no-store')
          // Proxies that buffer answers (nginx) pass each line on as it comes.
          .header('x-accel-buffering', 'no')
          .send(lines)
      );
    });

    // What stops working if the agent goes: the delete dialog lists it (docs/product-rules.md).
    route(app, api.usage, async (request) => agents.usage(request.auth.organizationId, request.params.id));

    route(app, api.remove, async (request, reply) => {
      await agents.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
