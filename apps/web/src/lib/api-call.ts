// The web's calls through the endpoint descriptors (packages/contracts/src/endpoints): the method and
// path come from the descriptor, which also types what goes and what comes back; the shared request
// rules are lib/api.ts's. A module of its own so that it loads with the screens that call it, not
// with the shell (the dashboard's first JavaScript has a budget).
import type { EndpointSpec } from '@crewline/contracts/endpoints';
import type { z } from 'zod';

import { apiRequest } from './api';

type Part<E, K extends string> = E extends { [key in K]: infer S extends z.ZodType } ? S : undefined;
type Input<E, K extends string, Optional extends boolean = false> =
  Part<E, K> extends z.ZodType
    ? Optional extends true
      ? { [key in K]?: z.input<Part<E, K>> }
      : { [key in K]: z.input<Part<E, K>> }
    : { [key in K]?: never };
/** What a call to the endpoint sends: its path parameters, query and body, as its descriptor types them. */
export type EndpointCall<E extends EndpointSpec> = Input<E, 'params'> &
  Input<E, 'query', true> &
  Input<E, 'body'> & { signal?: AbortSignal };
type Answers<E> = E extends { response: infer R } ? R[keyof R] : undefined;
/** What the endpoint answers: its success schema's output, or null when it answers no body. */
export type EndpointResult<E extends EndpointSpec> =
  Answers<E> extends z.ZodType ? z.output<Answers<E>> : null;

/** An endpoint's URL: its path with each `:name` filled in (encoded), and the defined query values. */
export function endpointUrl(
  path: string,
  params: Record<string, unknown> = {},
  query: Record<string, unknown> = {},
): string {
  const url = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

/** The web's way to call the API: `api.call(endpoints.apiKeys.create, { params: { orgId }, body })`. */
export const api = {
  call<E extends EndpointSpec>(
    endpoint: E,
    ...[input]: Record<never, never> extends EndpointCall<E> ? [EndpointCall<E>?] : [EndpointCall<E>]
  ): Promise<EndpointResult<E>> {
    const { params, query, body, signal } = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      signal?: AbortSignal;
    };
    return apiRequest<EndpointResult<E>>(endpoint.method, endpointUrl(endpoint.path, params, query), body, {
      signal,
    });
  },
};
