// Query keys from the endpoint descriptors' paths (packages/contracts/src/endpoints). A key is the
// request path in parts: the path's head (its static part before the first parameter) is one part,
// then each parameter's value and each later segment, then the query object when there is one; the
// default query function (query-fn.ts) joins them back into the URL. Invalidating a key's head
// (queryKeys.agents.all) refreshes everything under it, so the keys and the prefixes that
// invalidation and cache patching target all come from these two functions. The path comes from
// @crewline/contracts/paths (zod-free) and is checked against the GET descriptors by type only: the
// descriptors carry zod schemas, which the shell that loads this module cannot afford in its first
// JavaScript.
import type { endpoints } from '@crewline/contracts/endpoints';

type Areas = typeof endpoints;
type AnyEndpoint = { [A in keyof Areas]: Areas[A][keyof Areas[A]] }[keyof Areas];
/** The path of a GET endpoint, as its descriptor declares it: `/api/agents/:id/tools`. */
export type GetPath = Extract<AnyEndpoint, { method: 'GET' }>['path'];

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
/** The values of a path's `:name` parameters, as the key holds them (not encoded). */
export type KeyParams<P extends string> = { [Name in ParamNames<P>]: string | number };

/** A path's head: its static part before the first parameter (the whole path when it has none). */
export function keyHead(path: GetPath): string {
  const param = path.indexOf('/:');
  return param < 0 ? path : path.slice(0, param);
}

/**
 * The query key of GET `path` with its parameters filled in and `query` as the last part.
 * `head`: a shorter head, when a path without parameters belongs under another key's head.
 */
export function endpointKey<P extends GetPath>(
  path: P,
  ...[params, query, head = keyHead(path)]: [ParamNames<P>] extends [never]
    ? [params?: KeyParams<P>, query?: object, head?: string]
    : [params: KeyParams<P>, query?: object, head?: string]
): readonly unknown[] {
  const values = params as Record<string, unknown> | undefined;
  const parts = path
    .slice(head.length)
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment[0] === ':' ? values?.[segment.slice(1)] : segment));
  return query ? [head, ...parts, query] : [head, ...parts];
}
