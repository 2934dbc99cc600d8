import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** How a sign-in ended, as its callback page tells the opener (and the person, without scripts). */
export type OAuthCallbackOutcome = { success: true } | { success: false; message: string };

/** What a flow's callback page says and where it goes without an opener. */
export type OAuthCallbackCopy = {
  /** The `type` of the message posted to the opener (`microsoft_connected`, `mcp_connected`). */
  type: string;
  success: string;
  failure: string;
  /** Where a browser without an opener goes, by outcome. */
  fallback: { success: string; failure: string };
};

/** Only single string values are read from a provider's redirect; anything else counts as absent. */
export function callbackParam(query: unknown, name: string): string | undefined {
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
 * The page an OAuth sign-in popup lands on. With an opener (the Settings page that opened the popup)
 * it posts the outcome to it, same origin only, and closes; without one it goes to the fallback page.
 * It says why a sign-in failed too (the provider's own wording may be part of it: escaped), for a
 * browser without scripts, in the browser's light or dark scheme like the app. Its only script is
 * allowed by a nonce.
 */
export function oauthCallbackPage(
  copy: OAuthCallbackCopy,
  outcome: OAuthCallbackOutcome,
  nonce: string,
): string {
  const message = { type: copy.type, ...outcome };
  const fallback = outcome.success ? copy.fallback.success : copy.fallback.failure;
  // JSON in a script: `<` escaped so no value can close the script element.
  const data = JSON.stringify({ message, fallback }).replace(/</g, '\\u003c');
  const title = outcome.success ? copy.success : copy.failure;
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

/** Answers the callback page with the headers it needs (its own CSP, no caching, no referrer). */
export function sendOAuthCallbackPage(
  reply: FastifyReply,
  copy: OAuthCallbackCopy,
  outcome: OAuthCallbackOutcome,
) {
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
      .send(oauthCallbackPage(copy, outcome, nonce))
  );
}
