import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { apiKeyMessages } from '@crewline/contracts';
import { AppError, TooManyRequestsError } from '../../platform/errors';
import { bearerToken, isApiKey } from '../../platform/auth/auth-context';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import type { OAuthService } from '../oauth/oauth.service';
import type { McpCaller } from './mcp-server';
import type { McpEndpoint, McpServerDeps } from './mcp-endpoint';

/** The MCP endpoint's path: outside /api, as MCP clients are configured with one URL. */
const MCP_PATH = '/mcp';
/** A JSON-RPC message is small; a tool's arguments are a run's input, which the API bounds the same. */
const MCP_BODY_LIMIT_BYTES = 1024 * 1024;

const mcpRouteMessages = {
  noKey: 'Send an organization API key: "Authorization: Bearer crw_…".',
  invalidToken: 'Invalid or expired access token',
  origin: 'Requests from this origin are not allowed.',
};

/** A JSON-RPC error answer with no request id (the request was refused before it was read). */
function jsonRpcError(reply: FastifyReply, status: number, message: string, code = -32000) {
  return reply
    .status(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** The web-standard Request the SDK's handler takes, from Fastify's (its body already parsed). */
function webRequest(request: FastifyRequest, reply: FastifyReply, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // The body travels parsed (parsedBody), so its framing headers do not.
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The client went away: the tool call waiting for its run stops waiting (the run goes on).
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  return new Request(new URL(request.url, publicUrl), {
    method: request.method,
    headers,
    signal: gone.signal,
  });
}

/**
 * POST /mcp (and GET/DELETE, which a stateless server answers 405): the organization's MCP server
 * (docs/product-rules.md, MCP: the organization's server). The caller's organization API key is
 * verified as on the API (modules/api-keys: its creator still a member, its rate limit, the plan's
 * API access); another bearer is tried as an OAuth access token (modules/oauth: its grant live, its
 * member still in the organization, the plan's API access); without either the answer is 401 with a Bearer challenge naming
 * the protected resource metadata. Browsers may call it only from our own origin. Then the SDK's
 * handler serves the request with a server built for it.
 */
export function mcpRoutes(deps: {
  server: McpServerDeps;
  apiKeys: Pick<ApiKeysService, 'authenticate'>;
  /** OAuth access tokens (modules/oauth): a bearer that is not an API key is tried as one. */
  oauth: Pick<OAuthService, 'verifyAccessToken'>;
  /** 402 when the organization's plan has no API access (an API key's own check makes it for keys). */
  apiAccess(organizationId: string): Promise<void>;
  publicUrl: string;
}): FastifyPluginAsync {
  const ownOrigin = new URL(deps.publicUrl).origin;
  // RFC 9728: the 401's challenge names the protected resource metadata, where OAuth clients start.
  const resourceMetadataUrl = `${deps.publicUrl}/.well-known/oauth-protected-resource${MCP_PATH}`;
  let loaded: Promise<McpEndpoint> | undefined;
  const endpoint = () =>
    (loaded ??= import('./mcp-endpoint').then(({ createMcpEndpoint }) => createMcpEndpoint(deps.server)));
  return async (app) => {
    app.addHook('onClose', async () => {
      if (loaded) await (await loaded).handler.close();
    });
    app.route({
      method: ['POST', 'GET', 'DELETE'],
      url: MCP_PATH,
      bodyLimit: MCP_BODY_LIMIT_BYTES,
      // Refusals before the SDK (a malformed body, a rate limit) answer as JSON-RPC errors too.
      errorHandler(error: FastifyError, request, reply) {
        if (error instanceof TooManyRequestsError)
          reply.header('retry-after', String(error.retryAfterSeconds));
        if (error instanceof AppError) return jsonRpcError(reply, error.statusCode, error.message);
        if (error.statusCode && error.statusCode < 500) {
          return jsonRpcError(
            reply,
            error.statusCode,
            error.message,
            error.statusCode === 400 ? -32700 : -32000,
          );
        }
        // The app's handler logs it and answers 500 (or 503 while the database is away).
        throw error;
      },
      async handler(request, reply) {
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== ownOrigin)
          return jsonRpcError(reply, 403, mcpRouteMessages.origin);
        const { handler, challenge } = await endpoint();
        const token = bearerToken(request);
        if (!token) return reply.send(challenge(mcpRouteMessages.noKey, resourceMetadataUrl));
        let caller: McpCaller;
        if (isApiKey(token)) {
          const auth = await deps.apiKeys.authenticate(token);
          if (!auth) return reply.send(challenge(apiKeyMessages.invalid, resourceMetadataUrl));
          caller = { organizationId: auth.organizationId, userId: auth.userId, apiKeyId: auth.apiKeyId };
        } else {
          const granted = await deps.oauth.verifyAccessToken(token);
          if (!granted) return reply.send(challenge(mcpRouteMessages.invalidToken, resourceMetadataUrl));
          await deps.apiAccess(granted.organizationId);
          caller = { organizationId: granted.organizationId, userId: granted.userId };
        }
        // Pass-through to the factory: never the key itself.
        const authInfo: AuthInfo = {
          token: '',
          clientId: caller.apiKeyId ?? 'oauth',
          scopes: [],
          extra: { caller },
        };
        const response = await handler.fetch(webRequest(request, reply, deps.publicUrl), {
          authInfo,
          ...(request.method === 'POST' && request.body !== undefined ? { parsedBody: request.body } : {}),
        });
        return reply.send(response);
      },
    });
  };
}
