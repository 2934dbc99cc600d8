import type { FastifyRequest } from 'fastify';

/** The cookie name matches the browser storage key that holds the session token. */
const COOKIE_NAME = 'authToken';

/**
 * The session token of a websocket handshake: `?token=` first (browsers cannot set headers on a
 * websocket), else the `authToken` cookie.
 *
 * A cookie is sent by the browser whichever page opens the socket, so another site could ride on it
 * (cross-site websocket hijacking). A cookie token therefore only counts when the handshake comes
 * from our own origin, or from a non-browser client that sends no Origin. A query token cannot be
 * forged by another site, so it needs no such check.
 */
export function socketToken(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.token === 'string' && query.token) return query.token;
  const cookie = readCookie(request.headers.cookie, COOKIE_NAME);
  if (cookie && sameOrigin(request)) return cookie;
  return undefined;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}
