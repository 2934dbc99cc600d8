import {
  agentMemoriesQuerySchema,
  agentMemoriesSchema,
  agentMemoryParamsSchema,
  idParamsSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** An agent's memories (its Advanced tab): list and search, forget one or all. */
export const memoryEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.memory.list,
    params: idParamsSchema,
    query: agentMemoriesQuerySchema,
    response: { 200: agentMemoriesSchema },
    summary: "List or search an agent's memories",
    tag: 'Agents',
    auth: 'token',
  }),
  forget: defineEndpoint({
    method: 'DELETE',
    path: paths.memory.forget,
    params: agentMemoryParamsSchema,
    summary: 'Forget one memory',
    tag: 'Agents',
    auth: 'token',
  }),
  forgetAll: defineEndpoint({
    method: 'DELETE',
    path: paths.memory.list,
    params: idParamsSchema,
    summary: "Forget all of an agent's memories",
    tag: 'Agents',
    auth: 'token',
  }),
};
