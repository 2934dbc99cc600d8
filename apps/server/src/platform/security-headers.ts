import type { FastifyInstance } from 'fastify';

// The SPA keeps its token in localStorage, so script injection must be impossible:
// only our own scripts run, nothing is framed, nothing is fetched from elsewhere.
// With Stripe configured, Stripe.js (js.stripe.com) runs its Payment Element in frames and talks to
// api.stripe.com; without it nothing of Stripe's is admitted. Only a chat app's page may be framed, by
// the sites its app allows (`frameAncestors`, modules/chat/chat-page.headers.ts).
export function contentSecurityPolicy(options: { stripe?: boolean; frameAncestors?: string[] } = {}): string {
  const stripe = options.stripe === true;
  const frameAncestors = options.frameAncestors?.length ? options.frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'self'",
    stripe ? "script-src 'self' https://js.stripe.com" : "script-src 'self'",
    // Radix and React set inline style attributes for positioning; no inline <style> injection needed beyond that.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    stripe ? "connect-src 'self' ws: wss: https://api.stripe.com" : "connect-src 'self' ws: wss:",
    ...(stripe ? ['frame-src https://js.stripe.com'] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, options: { stripe?: boolean } = {}) {
  const policy = contentSecurityPolicy(options);
  app.addHook('onSend', async (request, reply) => {
    // A route may answer with its own, stricter policy (the Microsoft sign-in callback page allows its one
    // inline script by nonce and keeps its opener); every other answer gets these.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', policy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // same-origin-allow-popups: the Microsoft sign-in popup must keep its opener to report back.
    if (!reply.hasHeader('cross-origin-opener-policy')) {
      reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    }
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });
}
