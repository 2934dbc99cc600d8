import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { createOAuthBrowserBinding } from '../../platform/auth/oauth-browser-binding';
import { route } from '../../platform/route';
import { STATE_TTL_MS, type CallbackOutcome, type MicrosoftService } from './microsoft.service';

const { microsoft: api } = endpoints;

/** Only single string values are read from Microsoft's redirect; anything else counts as absent. */
function stringParam(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 4096 ? value : undefined;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);

/**
 * The page the sign-in popup lands on. With an opener (the Settings page that opened the popup) it
 * posts the outcome to it, same origin only, and closes; without one it goes to the Settings page
 * with the outcome in the address. It says why a sign-in failed too (Microsoft's own wording may be
 * part of it: escaped), for a browser without scripts, in the browser's light or dark scheme like the
 * app. Its only script is allowed by a nonce.
 */
export function callbackPage(outcome: CallbackOutcome, nonce: string): string {
  const message = { type: 'microsoft_connected', ...outcome };
  const fallback = outcome.success
    ? '/settings/profile?tab=tools&microsoft_connected=true'
    : '/settings/profile?tab=tools&microsoft_error=true';
  // JSON in a script: `<` escaped so no value can close the script element.
  const data = JSON.stringify({ message, fallback }).replace(/</g, '\\u003c');
  const title = outcome.success ? 'Microsoft 365 connected' : 'Microsoft 365 connection failed';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; max-width: 32rem; margin: 0 auto; padding: 2rem 1.5rem; text-align: center">
<p>${title}. ${outcome.success ? '' : `${escapeHtml(outcome.message)} `}You can close this window.</p>
<script nonce="${nonce}">
(function () {
  var data = ${data};
  if (window.opener && !window.opener.closed) {
    try { window.opener.postMessage(data.message, window.location.origin); } catch (e) {}
    window.close();
  } else {
    window.location.replace(data.fallback);
  }
})();
</script>
</body>
</html>
`;
}

export function microsoftRoutes(microsoft: MicrosoftService): FastifyPluginAsyncZod {
  // The sign-in is bound to the browser that starts it (docs/security.md, OAuth).
  const binding = createOAuthBrowserBinding({
    flow: 'microsoft',
    redirectUri: microsoft.redirectUri,
    ttlMs: STATE_TTL_MS,
  });
  return async (app) => {
    route(app, api.status, async (request) => microsoft.status(request.auth.organizationId));

    // Connecting the organization's mailbox is an admin's setting (docs/security.md, Tenancy and roles).
    route(app, api.connect, async (request, reply) => {
      const { authUrl, state } = await microsoft.start(request.auth.userId, request.auth.organizationId);
      // Set on the answer the browser itself fetches (the web app's request includes credentials).
      binding.bind(request, reply, state);
      return { authUrl };
    });

    // Public: the browser arrives here from Microsoft, without our token. The state it carries says
    // who started the sign-in and for which organization, the binding cookie that this is the browser
    // that started it.
    route(app, api.callback, async (request, reply) => {
      const state = stringParam(request.query, 'state');
      const outcome = await microsoft.complete(
        { code: stringParam(request.query, 'code'), state, error: stringParam(request.query, 'error') },
        { sameBrowser: binding.isBound(request, state) },
      );
      binding.clear(request, reply);
      // Never the code, the state or a token: the outcome and Microsoft's error code only.
      if (outcome.success) request.log.info('Microsoft 365 connected');
      else request.log.warn({ reason: outcome.message }, 'Microsoft 365 sign-in failed');
      const nonce = randomBytes(16).toString('base64');
      return (
        reply
          .header(
            'content-security-policy',
            `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
          )
          // The popup must keep its opener to post the outcome back (see security-headers.ts).
          .header('cross-origin-opener-policy', 'unsafe-none')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .type('text/html; charset=utf-8')
          .send(callbackPage(outcome, nonce))
      );
    });

    route(app, api.disconnect, async (request) => {
      await microsoft.disconnect(request.auth.organizationId);
      return { success: true as const };
    });
  };
}
