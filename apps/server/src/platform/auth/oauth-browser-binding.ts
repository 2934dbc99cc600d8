import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Binds an OAuth sign-in to the browser that started it (docs/security.md, OAuth).
 *
 * A state proves that the answer belongs to a sign-in we started, not that it comes back in the
 * browser that started it: whoever started one could hand its authorization URL to someone else, and
 * that person's account would be connected to the starter's organization. So starting a sign-in also
 * sets a cookie holding the state's SHA-256 (HttpOnly, SameSite=Lax so that the provider's top-level
 * redirect carries it, Path limited to the callback, as long-lived as the state), and the callback only
 * goes on when the cookie matches the state it receives.
 *
 * Every OAuth flow of the server (Microsoft 365, MCP servers) must use this binding: start
 * with `bind`, check `isBound` in the callback before anything is redeemed, and `clear` in its answer.
 */
export type OAuthBrowserBinding = {
  /** Sets the cookie binding `state` to the browser that receives this reply. */
  bind(request: FastifyRequest, reply: FastifyReply, state: string): void;
  /** Whether the request carries the cookie of this very state. */
  isBound(request: FastifyRequest, state: string | undefined): boolean;
  /** Removes the cookie from the browser that receives this reply. */
  clear(request: FastifyRequest, reply: FastifyReply): void;
};

const hashOf = (state: string) => createHash('sha256').update(state, 'utf8').digest();

export function createOAuthBrowserBinding(options: {
  /** Names the flow's cookie (`crewline_oauth_<flow>`): two flows never share one. */
  flow: string;
  /** The flow's redirect URI: the cookie is sent to its path only, and is Secure when it is https. */
  redirectUri: string;
  /** How long a started sign-in stays valid: the state's lifetime. */
  ttlMs: number;
}): OAuthBrowserBinding {
  const name = `crewline_oauth_${options.flow}`;
  const redirect = new URL(options.redirectUri);
  const path = redirect.pathname;
  // Behind a proxy that ends TLS the request itself may say http: the public URL says what the browser sees.
  const secure = (request: FastifyRequest) => redirect.protocol === 'https:' || request.protocol === 'https';
  const setCookie = (request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
    reply.header(
      'set-cookie',
      stringifySetCookie({
        name,
        value,
        path,
        maxAge,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
      }),
    );

  return {
    bind(request, reply, state) {
      setCookie(request, reply, hashOf(state).toString('base64url'), Math.floor(options.ttlMs / 1000));
    },

    isBound(request, state) {
      if (!state || !request.headers.cookie) return false;
      const value = parseCookie(request.headers.cookie)[name];
      if (!value) return false;
      const bound = Buffer.from(value, 'base64url');
      const expected = hashOf(state);
      return bound.length === expected.length && timingSafeEqual(bound, expected);
    },

    clear(request, reply) {
      setCookie(request, reply, '', 0);
    },
  };
}
