import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { createOAuthBrowserBinding } from '../../platform/auth/oauth-browser-binding';
import {
  callbackParam,
  oauthCallbackPage,
  sendOAuthCallbackPage,
  type OAuthCallbackCopy,
} from '../../platform/auth/oauth-callback-page';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import { STATE_TTL_MS, type CallbackOutcome, type MicrosoftService } from './microsoft.service';

const { microsoft: api } = endpoints;

/** The Microsoft sign-in's callback page (platform/auth/oauth-callback-page.ts). */
const CALLBACK_COPY: OAuthCallbackCopy = {
  type: 'microsoft_connected',
  success: 'Microsoft 365 connected',
  failure: 'Microsoft 365 connection failed',
  fallback: {
    success: '/settings/profile?tab=tools&microsoft_connected=true',
    failure: '/settings/profile?tab=tools&microsoft_error=true',
  },
};

export const callbackPage = (outcome: CallbackOutcome, nonce: string) =>
  oauthCallbackPage(CALLBACK_COPY, outcome, nonce);

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
      const state = callbackParam(request.query, 'state');
      const outcome = await microsoft.complete(
        { code: callbackParam(request.query, 'code'), state, error: callbackParam(request.query, 'error') },
        { sameBrowser: binding.isBound(request, state), ip: request.ip || null },
      );
      binding.clear(request, reply);
      // Never the code, the state or a token: the outcome and Microsoft's error code only.
      if (outcome.success) request.log.info('Microsoft 365 connected');
      else request.log.warn({ reason: outcome.message }, 'Microsoft 365 sign-in failed');
      return sendOAuthCallbackPage(reply, CALLBACK_COPY, outcome);
    });

    route(app, api.disconnect, async (request) => {
      await microsoft.disconnect(request.auth.organizationId, requestActor(request));
      return { success: true as const };
    });
  };
}
