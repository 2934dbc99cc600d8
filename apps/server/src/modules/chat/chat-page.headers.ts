import type { FastifyInstance } from 'fastify';
import { CHAT_SLUG_PATTERN } from '@crewline/contracts';
import { contentSecurityPolicy } from '../../platform/security-headers';
import type { ChatApp } from './chat-apps.presenter';

/*
 * What lets other sites embed a chat app (docs/security.md, Chat apps). The hosted page `/chat/<slug>`
 * (the web app's index.html, served by platform/spa.ts) may be framed by the origins its app allows:
 * `frame-ancestors 'self' <allowed origins>`, and no `X-Frame-Options` (it cannot name origins; browsers
 * that know CSP ignore it beside frame-ancestors). An unknown slug, an app switched off or one that allows
 * no origin: `frame-ancestors 'self'` and `X-Frame-Options: SAMEORIGIN`. Every other page keeps 'none'
 * and DENY (platform/security-headers.ts). The widget's script (/widget.js, built into the web app's
 * dist) is loaded by any site: cross-origin, cacheable for a few minutes, so a new build reaches the
 * sites soon.
 */

const WIDGET_SCRIPT_PATH = '/widget.js';
const CHAT_PAGE = /^\/chat\/([^/]+)\/?$/;
/** How long an app's allowed origins are reused: an edit or the off switch reaches its page this late. */
const ORIGINS_TTL_MS = 5_000;
/** Slugs remembered at once: any address can be asked for, so the cache must not grow with them. */
const ORIGINS_CACHE_SIZE = 500;

type AppsBySlug = { bySlug(slug: string): Promise<ChatApp | undefined> };

/** The origins that may frame the page of the app at `slug` (none but our own: []), each read cached a few seconds. */
export function createFrameAncestors(apps: AppsBySlug, { ttlMs = ORIGINS_TTL_MS, now = Date.now } = {}) {
  const cache = new Map<string, { until: number; origins: Promise<string[]> }>();
  return (slug: string): Promise<string[]> => {
    const key = slug.toLowerCase();
    if (!CHAT_SLUG_PATTERN.test(key)) return Promise.resolve([]);
    const cached = cache.get(key);
    if (cached && cached.until > now()) return cached.origins;
    cache.delete(key);
    if (cache.size >= ORIGINS_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    const origins = apps.bySlug(key).then(
      (app) => (app?.enabled ? app.allowedOrigins : []),
      // The database did not answer: framed by no other site this time, asked again next time.
      () => (cache.delete(key), []),
    );
    cache.set(key, { until: now() + ttlMs, origins });
    return origins;
  };
}

/** Registered after registerSecurityHeaders (its onSend hook must run first, so this one has the last word). */
export function registerChatPageHeaders(app: FastifyInstance, deps: { apps: AppsBySlug; stripe: boolean }) {
  const frameAncestors = createFrameAncestors(deps.apps);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET') return payload;
    const pathname = request.url.split('?')[0];
    if (pathname === WIDGET_SCRIPT_PATH) {
      if (reply.statusCode < 400) {
        reply.header('content-type', 'application/javascript; charset=utf-8');
        reply.header('cache-control', 'public, max-age=300');
        reply.header('cross-origin-resource-policy', 'cross-origin');
      }
      return payload;
    }
    const page = CHAT_PAGE.exec(pathname);
    if (!page) return payload;
    // A slug is letters, digits and dashes: an escaped segment is not one, and is framed by our pages only.
    const origins = await frameAncestors(page[1]);
    reply.header(
      'content-security-policy',
      contentSecurityPolicy({ stripe: deps.stripe, frameAncestors: ["'self'", ...origins] }),
    );
    if (origins.length) reply.removeHeader('x-frame-options');
    else reply.header('x-frame-options', 'SAMEORIGIN');
    return payload;
  });
}
