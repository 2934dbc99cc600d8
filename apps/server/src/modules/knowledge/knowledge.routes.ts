import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KNOWLEDGE_MAX_DOCUMENT_BYTES,
  addKnowledgeDocumentSchema,
  createKnowledgeBaseSchema,
  idParamsSchema,
  knowledgeBaseSchema,
  knowledgeDocumentSchema,
  knowledgeSearchResultSchema,
  knowledgeSearchSchema,
  updateKnowledgeBaseSchema,
  usageSchema,
} from '@crewline/contracts';
import type { KnowledgeService } from './knowledge.service';

/**
 * The documents route's body limit: 20 MiB of text, as JSON. Escaping can double some text (a CSV's
 * quotes, a file of short lines), so the body may be twice the text and a little more; the schema
 * then holds the text itself to 20 MiB. A PDF of 20 MiB is 4/3 of that as base64 (26.7 MiB), well
 * within it; the schema holds its decoded bytes to 20 MiB.
 */
export const DOCUMENT_BODY_LIMIT_BYTES = 2 * KNOWLEDGE_MAX_DOCUMENT_BYTES + 1024 * 1024;

const documentParamsSchema = z.object({ id: z.string(), docId: z.string() });

export function knowledgeRoutes(knowledge: KnowledgeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/knowledge-bases',
      { schema: { response: { 200: z.array(knowledgeBaseSchema) } } },
      async (request) => knowledge.list(request.auth.organizationId),
    );

    app.post(
      '/api/knowledge-bases',
      { schema: { body: createKnowledgeBaseSchema, response: { 201: knowledgeBaseSchema } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(await knowledge.create(request.auth.organizationId, request.auth.userId, request.body)),
    );

    app.get(
      '/api/knowledge-bases/:id',
      { schema: { params: idParamsSchema, response: { 200: knowledgeBaseSchema } } },
      async (request) => knowledge.get(request.auth.organizationId, request.params.id),
    );

    app.put(
      '/api/knowledge-bases/:id',
      {
        schema: {
          params: idParamsSchema,
          body: updateKnowledgeBaseSchema,
          response: { 200: knowledgeBaseSchema },
        },
      },
      async (request) => knowledge.update(request.auth.organizationId, request.params.id, request.body),
    );

    // What searches it (tools, and the agents using them): its delete dialog lists them.
    app.get(
      '/api/knowledge-bases/:id/usage',
      { schema: { params: idParamsSchema, response: { 200: usageSchema } } },
      async (request) => knowledge.usage(request.auth.organizationId, request.params.id),
    );

    app.delete('/api/knowledge-bases/:id', { schema: { params: idParamsSchema } }, async (request, reply) => {
      await knowledge.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });

    app.get(
      '/api/knowledge-bases/:id/documents',
      { schema: { params: idParamsSchema, response: { 200: z.array(knowledgeDocumentSchema) } } },
      async (request) => knowledge.documents(request.auth.organizationId, request.params.id),
    );

    app.post(
      '/api/knowledge-bases/:id/documents',
      {
        bodyLimit: DOCUMENT_BODY_LIMIT_BYTES,
        schema: {
          params: idParamsSchema,
          body: addKnowledgeDocumentSchema,
          response: { 201: knowledgeDocumentSchema },
        },
        // A body over the limit says what the user can act on; every other error goes to the app's handler.
        errorHandler: (error: FastifyError, _request, reply) => {
          if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
          return (reply as FastifyReply).status(413).send({ message: 'The document is larger than 20 MiB' });
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await knowledge.addDocument(request.auth.organizationId, request.params.id, request.body)),
    );

    app.delete(
      '/api/knowledge-bases/:id/documents/:docId',
      { schema: { params: documentParamsSchema } },
      async (request, reply) => {
        await knowledge.removeDocument(request.auth.organizationId, request.params.id, request.params.docId);
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/knowledge-bases/:id/search',
      {
        schema: {
          params: idParamsSchema,
          body: knowledgeSearchSchema,
          response: { 200: knowledgeSearchResultSchema },
        },
      },
      async (request) => {
        const { query, topK } = request.body;
        return { hits: await knowledge.search(request.auth.organizationId, request.params.id, query, topK) };
      },
    );
  };
}
