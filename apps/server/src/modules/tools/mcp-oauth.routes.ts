import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { createOAuthBrowserBinding } from '../../platform/auth/oauth-browser-binding';
import {
  callbackParam,
  sendOAuthCallbackPage,
  type OAuthCallbackCopy,
} from '../../platform/auth/oauth-callback-page';
import { route } from '../../platform/route';
import { MCP_OAUTH_STATE_TTL_MS, type McpOauth, type McpOauthConnection } from './mcp-oauth.service';

const { tools: api } = endpoints;

const CALLBACK_COPY: OAuthCallbackCopy = {
  type: 'mcp_connected',
  success: 'MCP server connected',
  failure: 'MCP server connection failed',
  fallback: {
    success: '/settings/profile?tab=tools&mcp_connected=true',
    failure: '/settings/profile?tab=tools&mcp_error=true',
  },
};

/**
 * Signing in to an OAuth MCP server: an admin's browser starts it (`mcp-authorize`, which binds the
 * sign-in to that browser, docs/security.md, OAuth) and comes back to the public callback.
 */
export function mcpOauthRoutes(
  oauth: McpOauth,
  connections: {
    /** The organization's OAuth MCP connection (404 for another's, 400 for a tool that is not one). */
    require(organizationId: string, toolId: string): Promise<McpOauthConnection>;
    /** The connection a finished sign-in was for, if it still exists. */
    find(organizationId: string, toolId: string): Promise<McpOauthConnection | undefined>;
    /** Lists the server's tools once signed in (failures are kept with the listing, not thrown). */
    refresh(organizationId: string, toolId: string): Promise<unknown>;
  },
): FastifyPluginAsyncZod {
  const binding = createOAuthBrowserBinding({
    flow: 'mcp',
    redirectUri: oauth.redirectUri,
    ttlMs: MCP_OAUTH_STATE_TTL_MS,
  });
  return async (app) => {
    route(app, api.mcpAuthorize, async (request, reply) => {
      const connection = await connections.require(request.auth.organizationId, request.params.id);
      const { authUrl, state } = await oauth.start(connection, request.auth.userId);
      // Set on the answer the browser itself fetches (the web app's request includes credentials).
      binding.bind(request, reply, state);
      return { authUrl };
    });

    // Public: the browser arrives here from the authorization server, without our token. The state
    // says which sign-in, the binding cookie that this is the browser that started it.
    route(app, api.mcpOauthCallback, async (request, reply) => {
      const state = callbackParam(request.query, 'state');
      let toolOf: { organizationId: string; toolId: string } | undefined;
      const outcome = await oauth.complete(
        {
          code: callbackParam(request.query, 'code'),
          iss: callbackParam(request.query, 'iss'),
          error: callbackParam(request.query, 'error'),
          state,
        },
        { sameBrowser: binding.isBound(request, state), ip: request.ip || null },
        async (organizationId, toolId) => {
          toolOf = { organizationId, toolId };
          return connections.find(organizationId, toolId);
        },
      );
      binding.clear(request, reply);
      // Never the code, the state or a token.
      if (outcome.success && toolOf) {
        request.log.info('MCP server connected');
        await connections.refresh(toolOf.organizationId, toolOf.toolId);
      } else if (!outcome.success) request.log.warn({ reason: outcome.message }, 'MCP server sign-in failed');
      return sendOAuthCallbackPage(reply, CALLBACK_COPY, outcome);
    });
  };
}
