import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { OAuthProtocolError, type OAuthService } from './oauth.service';

const { oauth: api } = endpoints;

/** RFC 6749 §5.2: `{ error, error_description }`, never cached. */
function protocolError(reply: FastifyReply, error: OAuthProtocolError) {
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send({ error: error.error, error_description: error.description });
}

async function answer(reply: FastifyReply, work: () => Promise<unknown>) {
  try {
    const body = await work();
    return reply.header('cache-control', 'no-store').send(body);
  } catch (error) {
    if (error instanceof OAuthProtocolError) return protocolError(reply, error);
    throw error;
  }
}

const formOrJson = (body: unknown) =>
  (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;

/**
 * The protocol's public routes, outside /api (RFC 8414, 9728, 7591, 6749, 7009). Clients may run in a
 * browser (an inspector), so they answer any origin: none of them reads a cookie or a session.
 */
function protocolRoutes(oauth: OAuthService) {
  return async (app: FastifyInstance) => {
    // RFC 6749 §4.1.3: the token and revocation requests are form-encoded (this plugin's routes only).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
    });
    const config = { public: true };
    // A browser asks first before sending a JSON body or the MCP-Protocol-Version header.
    const preflight: [string, string][] = [
      ['/.well-known/oauth-protected-resource', 'GET'],
      ['/.well-known/oauth-protected-resource/mcp', 'GET'],
      ['/.well-known/oauth-authorization-server', 'GET'],
      ['/oauth/register', 'POST'],
      ['/oauth/token', 'POST'],
      ['/oauth/revoke', 'POST'],
    ];
    for (const [url, method] of preflight) {
      app.options(url, { config }, async (_request, reply) =>
        reply
          .code(204)
          .header('access-control-allow-methods', method)
          .header('access-control-allow-headers', 'content-type, mcp-protocol-version')
          .send(),
      );
    }

    for (const url of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      app.get(url, { config }, async () => oauth.protectedResourceMetadata());
    }
    app.get('/.well-known/oauth-authorization-server', { config }, async () =>
      oauth.authorizationServerMetadata(),
    );

    app.post('/oauth/register', { config }, async (request, reply) =>
      answer(reply.code(201), () => oauth.register(request.body, request.ip)),
    );

    app.get('/oauth/authorize', { config }, async (request, reply) => {
      const result = await oauth.authorize(formOrJson(request.query));
      if ('error' in result) return protocolError(reply, result.error);
      return reply.redirect(result.redirect, 302);
    });

    app.post('/oauth/token', { config }, async (request, reply) =>
      answer(reply, () => oauth.token(formOrJson(request.body))),
    );

    app.post('/oauth/revoke', { config }, async (request, reply) =>
      answer(reply, async () => {
        await oauth.revoke(formOrJson(request.body));
        return {};
      }),
    );
  };
}

/** The consent page's calls and Settings → Connected apps: a signed-in member only, never an API key. */
function appRoutes(oauth: OAuthService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.consentInfo, async (request) => oauth.consentInfo(request.query));
    route(app, api.consent, async (request) => oauth.consent(request.auth, request.body));
    route(app, api.grants, async (request) => oauth.listGrants(request.auth));
    route(app, api.revokeGrant, async (request, reply) => {
      await oauth.revokeGrant(request.auth, request.params.id);
      return reply.status(204).send();
    });
  };
}

/** OAuth 2.1 for MCP clients (modules/oauth): the protocol's routes and the app's. */
export function oauthRoutes(oauth: OAuthService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(protocolRoutes(oauth));
    await app.register(appRoutes(oauth));
  };
}
