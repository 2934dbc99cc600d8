import type { z } from 'zod';
import type { OrganizationRole } from '../teams';
import type { EndpointTag } from './tags';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint, as the server's guards tell them apart (apps/server/src/modules/auth):
 * - `public`: no token needed;
 * - `token`: a session token or an organization API key, unless `role` or `membershipOptional`
 *   keep keys out (a key never passes a role above member, nor a membership-optional route);
 * - `session`: a signed-in user only, never an API key.
 */
export type EndpointAuth = 'public' | 'token' | 'session';

/** One operation of the API: how it is called, what it answers, who may call it and how it is documented. */
export type EndpointSpec = {
  method: HttpMethod;
  /** As the server registers it: `/api/agents/:id`. */
  path: `/api/${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The answers with a body, by status. Absent on the few routes that answer without a schema (204s, streams, pages). */
  response?: Partial<Record<200 | 201 | 202, z.ZodType>>;
  /** The operation's title in the API reference. */
  summary: string;
  /** Its section in the API reference. */
  tag: EndpointTag;
  auth: EndpointAuth;
  /** The weakest organization role it needs; none means any member. */
  role?: Exclude<OrganizationRole, 'member'>;
  /** Also serves a session whose membership of its organization ended. */
  membershipOptional?: true;
  /** A plan limit (402) applies to sessions too, not only to API keys. */
  planLimited?: true;
  /** Answers 204 without a body although it is not a DELETE. */
  noContent?: true;
  /** Refusals particular to this endpoint, beyond the ones every endpoint of its kind gets. */
  errors?: Partial<Record<number, string>>;
};

/**
 * Declares an endpoint. The descriptor is the one source of the route: the server registers its
 * handler against it, the OpenAPI document reads its summary and tag, the web calls it.
 */
export function defineEndpoint<const E extends EndpointSpec>(endpoint: E): E {
  return endpoint;
}

/** `METHOD /path`, as the route inventory and the OpenAPI side name an operation. */
export const endpointKey = (endpoint: Pick<EndpointSpec, 'method' | 'path'>) =>
  `${endpoint.method} ${endpoint.path}`;
