import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KNOWLEDGE_MAX_DOCUMENT_BYTES } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { KnowledgeService } from './knowledge.service';

const { knowledge: api } = endpoints;

/**
 * The documents route's body limit: 20 MiB of text, as JSON. Escaping can double some text (a CSV's
 * quotes, a file of short lines), so the body may be twice the text and a little more; the schema
 * then holds the text itself to 20 MiB. A PDF of 20 MiB is 4/3 of that as base64 (26.7 MiB), well
 * within it; the schema holds its decoded bytes to 20 MiB.
 */
const DOCUMENT_BODY_LIMIT_BYTES = 2 * KNOWLEDGE_MAX_DOCUMENT_BYTES + 1024 * 1024;

export function knowledgeRoutes(knowledge: KnowledgeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onClose', async () => knowledge.close());

    route(app, api.list, async (request) => knowledge.list(request.auth.organizationId));

    route(app, api.create, async (request) =>
      knowledge.create(request.auth.organizationId, request.auth.userId, request.body),
    );

    route(app, api.get, async (request) => knowledge.get(request.auth.organizationId, request.params.id));

    route(app, api.update, async (request) =>
      knowledge.update(request.auth.organizationId, request.params.id, request.body),
    );

    // What searches it (tools, and the agents using them): its delete dialog lists them.
    route(app, api.usage, async (request) => knowledge.usage(request.auth.organizationId, request.params.id));

    route(app, api.remove, async (request, reply) => {
      await knowledge.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });

    route(app, api.documents, async (request) =>
      knowledge.documents(request.auth.organizationId, request.params.id),
    );

    route(
      app,
      api.addDocument,
      async (request) => knowledge.addDocument(request.auth.organizationId, request.params.id, request.body),
      {
        bodyLimit: DOCUMENT_BODY_LIMIT_BYTES,
        // A body over the limit says what the user can act on; every other error goes to the app's handler.
        errorHandler: (error: FastifyError, _request, reply) => {
          if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
          return (reply as FastifyReply).status(413).send({ message: 'The document is larger than 20 MiB' });
        },
      },
    );

    route(app, api.removeDocument, async (request, reply) => {
      await knowledge.removeDocument(request.auth.organizationId, request.params.id, request.params.docId);
      return reply.status(204).send();
    });

    route(app, api.search, async (request) => {
      const { query, topK } = request.body;
      return { hits: await knowledge.search(request.auth.organizationId, request.params.id, query, topK) };
    });
  };
}
