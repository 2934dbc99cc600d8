import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/**
 * An MCP server protected by OAuth 2.1, with its own authorization server, for the suite: it checks
 * what a real one checks, so a client that skips a step fails here too.
 * - Protected-resource metadata (RFC 9728) and a 401 with `WWW-Authenticate: Bearer resource_metadata=…`.
 * - Authorization-server metadata (RFC 8414, `issuer` echoed, RFC 9207 `iss` on the redirect).
 * - Dynamic client registration (RFC 7591): public clients only (`token_endpoint_auth_method: none`).
 * - The authorization request needs `response_type=code`, a registered `redirect_uri`, PKCE S256 and
 *   the resource (RFC 8707); the "user" approves at once (the test plays the browser).
 * - The token endpoint checks the code (single use, same client and redirect URI) against its PKCE
 *   verifier, and rotates refresh tokens (a used one is refused).
 * Tests expire the access tokens (`expireAccessTokens`) and refuse refreshes (`refuseRefresh`).
 */
export async function startFakeMcpOAuthServer() {
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<
    string,
    { clientId: string; redirectUri: string; challenge: string; resource: string }
  >();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const refreshTokens = new Map<string, { clientId: string }>();
  const counts = {
    registrations: 0,
    authorizationCodeGrants: 0,
    refreshGrants: 0,
    refusedRefreshes: 0,
    toolCalls: 0,
  };
  const state = { refuseRefresh: false };
  /** Every Authorization header the MCP endpoint received (tests check which token was used). */
  const bearerTokens: string[] = [];

  /** The request being served (requests are served one at a time here). */
  const current = { authorization: '' };
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: 'fake-oauth-mcp', version: '1.0.0' });
    server.registerTool(
      'lookup_account',
      {
        description: 'Looks up an account by its number',
        inputSchema: z.object({ number: z.string() }),
        annotations: { readOnlyHint: true },
      },
      async ({ number }) => {
        counts.toolCalls += 1;
        return { content: [{ type: 'text', text: `Account ${number}: active` }] };
      },
    );
    // A careless server that echoes the request's credential: the client must not pass it on.
    server.registerTool(
      'whoami',
      { description: 'Says which credential the call came with', annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: `You sent ${current.authorization}` }] }),
    );
    return server;
  });

  let base = '';
  const issue = () => randomBytes(24).toString('base64url');
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };
  /** Every refusal's description, in order (what a test expects the fake to have caught). */
  const refusals: string[] = [];
  const oauthError = (res: ServerResponse, error: string, description: string, status = 400) => {
    refusals.push(description);
    json(res, status, { error, error_description: description });
  };

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function tokenPair(clientId: string) {
    const access = issue();
    const refresh = issue();
    accessTokens.set(access, { expiresAt: Date.now() + 3600_000 });
    refreshTokens.set(refresh, { clientId });
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh };
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return oauthError(res, 'invalid_request', 'The token request must be form-encoded');
    const form = new URLSearchParams(await readBody(req));
    const clientId = form.get('client_id') ?? '';
    if (!clients.has(clientId)) return oauthError(res, 'invalid_client', 'Unknown client', 401);
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code || code.clientId !== clientId)
        return oauthError(res, 'invalid_grant', 'Unknown or used code');
      if (form.get('redirect_uri') !== code.redirectUri)
        return oauthError(res, 'invalid_grant', 'redirect_uri differs from the authorization request');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
        return oauthError(res, 'invalid_grant', 'PKCE verification failed');
      if (form.get('resource') && form.get('resource') !== code.resource)
        return oauthError(res, 'invalid_target', 'resource differs from the authorization request');
      counts.authorizationCodeGrants += 1;
      return json(res, 200, tokenPair(clientId));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const known = refreshTokens.get(presented);
      if (state.refuseRefresh || !known || known.clientId !== clientId) {
        counts.refusedRefreshes += 1;
        return oauthError(res, 'invalid_grant', 'The refresh token is invalid or was revoked');
      }
      refreshTokens.delete(presented);
      counts.refreshGrants += 1;
      return json(res, 200, tokenPair(clientId));
    }
    return oauthError(res, 'unsupported_grant_type', 'Only authorization_code and refresh_token');
  }

  function authorize(url: URL, res: ServerResponse) {
    const params = url.searchParams;
    const client = clients.get(params.get('client_id') ?? '');
    const redirectUri = params.get('redirect_uri') ?? '';
    // Never redirect to an address the client did not register.
    if (!client || !client.redirectUris.includes(redirectUri))
      return oauthError(res, 'invalid_request', 'Unknown client or unregistered redirect_uri');
    const back = new URL(redirectUri);
    const refuse = (error: string) => {
      back.searchParams.set('error', error);
      back.searchParams.set('state', params.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
    };
    if (params.get('response_type') !== 'code') return refuse('unsupported_response_type');
    if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge'))
      return refuse('invalid_request');
    if (params.get('resource') !== `${base}/mcp`) return refuse('invalid_target');
    const code = issue();
    codes.set(code, {
      clientId: params.get('client_id')!,
      redirectUri,
      challenge: params.get('code_challenge')!,
      resource: params.get('resource')!,
    });
    back.searchParams.set('code', code);
    back.searchParams.set('state', params.get('state') ?? '');
    back.searchParams.set('iss', base);
    res.writeHead(302, { location: back.toString() }).end();
  }

  async function register(req: IncomingMessage, res: ServerResponse) {
    let metadata: Record<string, unknown>;
    try {
      metadata = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return oauthError(res, 'invalid_client_metadata', 'The body is not JSON');
    }
    const redirectUris = metadata.redirect_uris;
    if (
      !Array.isArray(redirectUris) ||
      !redirectUris.length ||
      !redirectUris.every((u) => typeof u === 'string')
    )
      return oauthError(res, 'invalid_redirect_uri', 'redirect_uris is required');
    if ((metadata.token_endpoint_auth_method ?? 'client_secret_basic') !== 'none')
      return oauthError(
        res,
        'invalid_client_metadata',
        'Only public clients (token_endpoint_auth_method: none)',
      );
    const clientId = issue();
    clients.set(clientId, { redirectUris: redirectUris as string[] });
    counts.registrations += 1;
    return json(res, 201, {
      ...metadata,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
    });
  }

  async function serveMcp(req: IncomingMessage, res: ServerResponse, url: URL) {
    const authorization = req.headers.authorization ?? '';
    bearerTokens.push(authorization);
    const presented = authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
    const known = accessTokens.get(presented);
    if (!known || known.expiresAt <= Date.now()) {
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    current.authorization = authorization;
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const answer = await mcp.fetch(new Request(url, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const route = `${req.method} ${url.pathname}`;
    void (async () => {
      switch (route) {
        case 'GET /.well-known/oauth-protected-resource/mcp':
        case 'GET /.well-known/oauth-protected-resource':
          return json(res, 200, {
            resource: `${base}/mcp`,
            authorization_servers: [base],
            bearer_methods_supported: ['header'],
          });
        case 'GET /.well-known/oauth-authorization-server':
          return json(res, 200, {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['none'],
            authorization_response_iss_parameter_supported: true,
          });
        case 'POST /register':
          return register(req, res);
        case 'GET /authorize':
          return authorize(url, res);
        case 'POST /token':
          return token(req, res);
        default:
          if (url.pathname === '/mcp') return serveMcp(req, res, url);
          return json(res, 404, { error: 'not_found' });
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: 'server_error', error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${base}/mcp`,
    origin: base,
    counts,
    bearerTokens,
    refusals,
    /** Every access token handed out so far stops working (as if its hour had passed). */
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    /** The authorization server refuses every refresh from now on (a revoked consent). */
    refuseRefresh(refuse = true) {
      state.refuseRefresh = refuse;
    },
    async close() {
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeMcpOAuthServer = Awaited<ReturnType<typeof startFakeMcpOAuthServer>>;
