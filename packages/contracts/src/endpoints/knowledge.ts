import { z } from 'zod';
import {
  addKnowledgeDocumentSchema,
  createKnowledgeBaseSchema,
  idParamsSchema,
  knowledgeBaseSchema,
  knowledgeDocumentSchema,
  knowledgeSearchResultSchema,
  knowledgeSearchSchema,
  updateKnowledgeBaseSchema,
  usageSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

const documentParamsSchema = z.object({ id: z.string(), docId: z.string() });

/** Knowledge bases, their documents and search by meaning. */
export const knowledgeEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.knowledge.list,
    response: { 200: z.array(knowledgeBaseSchema) },
    summary: 'List knowledge bases',
    tag: 'Knowledge',
    auth: 'token',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: paths.knowledge.list,
    body: createKnowledgeBaseSchema,
    response: { 201: knowledgeBaseSchema },
    summary: 'Create a knowledge base',
    tag: 'Knowledge',
    auth: 'token',
  }),
  get: defineEndpoint({
    method: 'GET',
    path: paths.knowledge.get,
    params: idParamsSchema,
    response: { 200: knowledgeBaseSchema },
    summary: 'Get a knowledge base',
    tag: 'Knowledge',
    auth: 'token',
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: paths.knowledge.get,
    params: idParamsSchema,
    body: updateKnowledgeBaseSchema,
    response: { 200: knowledgeBaseSchema },
    summary: 'Rename or describe a knowledge base',
    tag: 'Knowledge',
    auth: 'token',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: paths.knowledge.get,
    params: idParamsSchema,
    summary: 'Delete a knowledge base',
    tag: 'Knowledge',
    auth: 'token',
  }),
  // What searches it (tools, and the agents using them): its delete dialog lists them.
  usage: defineEndpoint({
    method: 'GET',
    path: paths.knowledge.usage,
    params: idParamsSchema,
    response: { 200: usageSchema },
    summary: 'What searches a knowledge base (before deleting it)',
    tag: 'Knowledge',
    auth: 'token',
  }),
  documents: defineEndpoint({
    method: 'GET',
    path: paths.knowledge.documents,
    params: idParamsSchema,
    response: { 200: z.array(knowledgeDocumentSchema) },
    summary: "List a knowledge base's documents",
    tag: 'Knowledge',
    auth: 'token',
  }),
  addDocument: defineEndpoint({
    method: 'POST',
    path: paths.knowledge.documents,
    params: idParamsSchema,
    body: addKnowledgeDocumentSchema,
    response: { 201: knowledgeDocumentSchema },
    summary: 'Add a document',
    tag: 'Knowledge',
    auth: 'token',
    errors: { 413: 'The body is over the limit: the document is larger than 20 MiB.' },
  }),
  removeDocument: defineEndpoint({
    method: 'DELETE',
    path: paths.knowledge.removeDocument,
    params: documentParamsSchema,
    summary: 'Delete a document',
    tag: 'Knowledge',
    auth: 'token',
  }),
  search: defineEndpoint({
    method: 'POST',
    path: paths.knowledge.search,
    params: idParamsSchema,
    body: knowledgeSearchSchema,
    response: { 200: knowledgeSearchResultSchema },
    summary: 'Search a knowledge base',
    tag: 'Knowledge',
    auth: 'token',
    errors: {
      502: "The embedding model failed, or answered vectors of another length than the knowledge base's.",
    },
  }),
};
