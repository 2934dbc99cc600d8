import { z } from 'zod';
import { providerCatalogueSchema, connectionSchema, updateConnectionSchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Model providers and other credentials: the organization's settings (an API key never reads them). */
export const connectionsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.connections.list,
    response: { 200: z.array(connectionSchema) },
    summary: 'List connections',
    tag: 'Connections',
    auth: 'session',
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: paths.connections.update,
    params: z.object({ id: z.string() }),
    body: updateConnectionSchema,
    response: { 200: connectionSchema },
    summary: 'Set up a connection',
    tag: 'Connections',
    auth: 'token',
    role: 'admin',
  }),
  // With a connection configured the models come from the provider (cached 5 minutes), else a
  // built-in list; each with the model a new agent starts with.
  providers: defineEndpoint({
    method: 'GET',
    path: paths.connections.providers,
    response: { 200: providerCatalogueSchema },
    summary: 'List model providers and models',
    tag: 'Connections',
    auth: 'token',
  }),
};
