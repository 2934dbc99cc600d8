import { z } from 'zod';
import { modelPriceSchema, setModelPriceSchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Model prices (Settings → Costs): the table in force for the caller's organization, and its own prices. */
export const pricesEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.prices.list,
    response: { 200: z.array(modelPriceSchema) },
    summary: 'The model prices in force for my organization',
    tag: 'Costs',
    auth: 'token',
  }),
  set: defineEndpoint({
    method: 'PUT',
    path: paths.prices.list,
    body: setModelPriceSchema,
    response: { 200: modelPriceSchema },
    summary: "Set my organization's price for a model",
    tag: 'Costs',
    auth: 'token',
    role: 'admin',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: paths.prices.remove,
    params: z.object({ provider: z.string(), model: z.string() }),
    summary: "Remove my organization's price for a model (the built-in one, if any, applies again)",
    tag: 'Costs',
    auth: 'token',
    role: 'admin',
  }),
};
