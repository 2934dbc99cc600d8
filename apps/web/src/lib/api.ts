// The shared request rules (docs/product-rules.md):
// - the stored `authToken`, when present, goes out as `Authorization: Bearer <token>`;
// - `Content-Type: application/json` only when there is a body;
// - cookies are always included;
// - a non-OK answer throws `Error("<status>: <body text or status text>")`;
// - 204 or an empty body yields null, anything else the parsed JSON.
import type { QueryFunction, QueryKey } from '@tanstack/react-query';

import { getAuthToken } from './auth-token';

export { AUTH_TOKEN_KEY, USER_DATA_KEY, clearStoredAuth, getAuthToken, setAuthToken } from './auth-token';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function buildHeaders(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (hasBody) headers['Content-Type'] = 'application/json';
  return headers;
}

/** Throws `Error("<status>: <body>")` (status text when the body is empty) for a non-OK response. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

async function readBody<T>(res: Response): Promise<T> {
  if (res.status === 204) return null as T;
  const text = await res.text();
  if (!text) return null as T;
  return JSON.parse(text) as T;
}

/** One API call with the shared rules. Resolves to the parsed JSON body, or null for 204 / empty. */
export async function apiRequest<T = unknown>(
  method: HttpMethod | (string & {}),
  path: string,
  body?: unknown,
  init?: { signal?: AbortSignal },
): Promise<T> {
  const hasBody = body !== undefined;
  const res = await fetch(path, {
    method,
    headers: buildHeaders(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal: init?.signal,
  });
  await throwIfResNotOk(res);
  return readBody<T>(res);
}

/** A GET with the shared rules that also hands back the response headers (a list's next-page cursor). */
export async function apiGetWithHeaders<T = unknown>(
  path: string,
  init?: { signal?: AbortSignal },
): Promise<{ data: T; headers: Headers }> {
  const res = await fetch(path, {
    method: 'GET',
    headers: buildHeaders(false),
    credentials: 'include',
    signal: init?.signal,
  });
  await throwIfResNotOk(res);
  return { data: await readBody<T>(res), headers: res.headers };
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The URL a query key stands for: its string/number parts joined with '/'. */
export function queryKeyToPath(queryKey: QueryKey): string {
  return queryKey
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .map(String)
    .join('/');
}

/**
 * The default query function: GET on the query key parts joined with '/', same headers and
 * credentials as apiRequest. A 401 throws by default; `on401: 'returnNull'` yields null instead.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKeyToPath(queryKey), {
      headers: buildHeaders(false),
      credentials: 'include',
      signal,
    });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return readBody<T>(res);
  };
}

export interface ParsedApiError {
  /** HTTP status, or null when the request never got an answer (offline, aborted, bad JSON). */
  status: number | null;
  /** The server's `message` when the body is the JSON error shape, else the raw body text. */
  message: string | null;
  /** Field errors of a 400 answer (`errors: [{ path, message }]`). */
  errors: { path: string; message: string }[];
}

/** Splits an `Error("<status>: <body>")` into its status and the server's human message. */
export function parseApiError(error: unknown): ParsedApiError {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = /^(\d{3}): ([\s\S]*)$/.exec(raw);
  if (!match) return { status: null, message: null, errors: [] };
  const status = Number(match[1]);
  const body = match[2].trim();
  try {
    const json: unknown = JSON.parse(body);
    if (json && typeof json === 'object') {
      const obj = json as { message?: unknown; errors?: unknown };
      const errors = Array.isArray(obj.errors)
        ? obj.errors.filter(
            (e): e is { path: string; message: string } =>
              !!e && typeof e === 'object' && typeof e.path === 'string' && typeof e.message === 'string',
          )
        : [];
      return { status, message: typeof obj.message === 'string' ? obj.message : null, errors };
    }
  } catch {
    // not JSON: fall through to the text body
  }
  // An HTML error page (proxy, gateway) is no message for a person.
  const isMarkup = body.startsWith('<');
  return { status, message: body && !isMarkup ? body : null, errors: [] };
}

/** The human message for a banner or toast: the server's message, else `fallback`. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return parseApiError(error).message || fallback;
}

/** True when the error is an API answer with this status. */
export function isApiStatus(error: unknown, status: number): boolean {
  return parseApiError(error).status === status;
}
