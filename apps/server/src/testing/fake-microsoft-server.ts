import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A fake Microsoft identity platform (OAuth 2.0 authorization code flow with PKCE, v2.0 endpoints) and a
 * sliver of Microsoft Graph, on a real HTTP server on 127.0.0.1. It refuses what Microsoft refuses: an
 * unknown client or redirect URI, a wrong secret, a code that is unknown, used, expired or for another
 * redirect URI, a code verifier that does not hash to the challenge, a body that is not form-encoded,
 * an unknown or revoked refresh token, a missing or expired bearer token. Tests never reach Microsoft.
 *
 * As a program (the browser tests): `node --import tsx fake-microsoft-server.ts --port 5399
 * --client-id … --client-secret … --redirect-uri …`; consent is given automatically.
 */

export type FakeMicrosoftAccount = { id: string; email: string; name: string };
export type FakeMailMessage = {
  id: string;
  subject: string;
  bodyPreview: string;
  body: { contentType: 'text' | 'html'; content: string };
  from: { emailAddress: { name: string; address: string } };
  toRecipients: FakeRecipient[];
  ccRecipients: FakeRecipient[];
  receivedDateTime: string;
  internetMessageId: string;
  isRead: boolean;
};
export type FakeRecipient = { emailAddress: { name: string; address: string } };

export type FakeMicrosoftServerOptions = {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The tenant segment the app uses (`common`, a tenant id or a domain). */
  tenant?: string;
  /** Registered redirect URIs; any http(s) URI when absent. */
  redirectUris?: string[];
  account?: Partial<FakeMicrosoftAccount>;
};

export type FakeMicrosoftServer = Awaited<ReturnType<typeof startFakeMicrosoftServer>>;

const CODE_TTL_MS = 10 * 60_000;
const KNOWN_SCOPES = new Set([
  'openid',
  'profile',
  'email',
  'offline_access',
  'User.Read',
  'Mail.Read',
  'Mail.ReadWrite',
]);
const b64url = (bytes: Buffer) => bytes.toString('base64url');
const random = (prefix: string) => `${prefix}${b64url(randomBytes(24))}`;
const s256 = (verifier: string) => b64url(createHash('sha256').update(verifier, 'ascii').digest());

type IssuedCode = {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  issuedAt: number;
  used: boolean;
};
type AccessToken = { expiresAt: number };

export async function startFakeMicrosoftServer(options: FakeMicrosoftServerOptions = {}) {
  const clientId = options.clientId ?? '00000000-0000-4000-8000-0000000000c1';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const tenant = options.tenant ?? 'common';
  const account: FakeMicrosoftAccount = {
    id: 'fake-user-id',
    email: 'ada@contoso.example',
    name: 'Ada Lovelace',
    ...options.account,
  };

  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, AccessToken>();
  /** Refresh token → still valid (rotation revokes the old one). */
  const refreshTokens = new Map<string, boolean>();
  const messages: FakeMailMessage[] = [];
  /** What happened, for assertions: never the secrets themselves. */
  const log: {
    endpoint: string;
    grantType?: string;
    ok: boolean;
    error?: string;
    /** Delta requests: the Prefer header and the $select of a fresh round. */
    prefer?: string;
    select?: string;
  }[] = [];
  /** The next Graph delta requests answer these statuses (a Graph outage). */
  const graphFailures: number[] = [];
  let denyConsent = false;
  let refuseRefresh = false;
  let expiresIn = 3600;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: String(error) });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const authorizePath = `/${tenant}/oauth2/v2.0/authorize`;
    const tokenPath = `/${tenant}/oauth2/v2.0/token`;
    if (req.method === 'GET' && url.pathname === '/health') return sendJson(res, 200, { ok: true });
    if (req.method === 'GET' && url.pathname === authorizePath) return authorize(url, res);
    if (req.method === 'POST' && url.pathname === tokenPath) return token(req, res);
    if (req.method === 'GET' && url.pathname === '/v1.0/me') {
      if (!authorized(req, res)) return;
      return sendJson(res, 200, {
        id: account.id,
        displayName: account.name,
        mail: account.email,
        userPrincipalName: account.email,
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1.0/me/mailFolders/inbox/messages/delta') {
      if (!authorized(req, res)) return;
      const failure = graphFailures.shift();
      if (failure !== undefined) {
        log.push({ endpoint: 'delta', ok: false, error: String(failure) });
        return sendJson(res, failure, {
          error: { code: 'ServiceUnavailable', message: 'The service is temporarily unavailable.' },
        });
      }
      log.push({
        endpoint: 'delta',
        ok: true,
        prefer: String(req.headers.prefer ?? ''),
        select: url.searchParams.get('$select') ?? undefined,
      });
      return delta(req, url, res);
    }
    if (url.pathname.endsWith('/oauth2/v2.0/authorize') || url.pathname.endsWith('/oauth2/v2.0/token')) {
      return sendJson(res, 400, {
        error: 'invalid_tenant',
        error_description: 'AADSTS90002: Tenant not found.',
      });
    }
    sendJson(res, 404, { error: { code: 'NotFound', message: `No route ${req.method} ${url.pathname}` } });
  }

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    // Microsoft shows its own error page (no redirect) for an unknown app or redirect URI.
    if (q.get('client_id') !== clientId) {
      log.push({ endpoint: 'authorize', ok: false, error: 'unauthorized_client' });
      return sendText(res, 400, 'AADSTS700016: Application not found in the directory.');
    }
    if (!redirectAllowed(redirectUri)) {
      log.push({ endpoint: 'authorize', ok: false, error: 'invalid_redirect_uri' });
      return sendText(res, 400, 'AADSTS50011: The redirect URI does not match the redirect URIs configured.');
    }
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
      const state = q.get('state');
      if (state !== null) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() }).end();
    };
    const fail = (error: string, description: string) => {
      log.push({ endpoint: 'authorize', ok: false, error });
      back({ error, error_description: description });
    };
    if (q.get('response_type') !== 'code')
      return fail('unsupported_response_type', 'response_type must be code');
    if (q.has('response_mode') && q.get('response_mode') !== 'query') {
      return fail('invalid_request', 'response_mode must be query');
    }
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s))) {
      return fail('invalid_scope', `AADSTS70011: The provided scope is not valid: ${q.get('scope') ?? ''}`);
    }
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return fail('invalid_request', 'AADSTS501491: code_challenge must be an S256 challenge');
    }
    if (denyConsent) {
      return fail('access_denied', 'AADSTS65004: User declined to consent to access the app.');
    }
    const code = random('fake-code-');
    codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      scope: scopes.join(' '),
      issuedAt: Date.now(),
      used: false,
    });
    log.push({ endpoint: 'authorize', ok: true });
    back({ code, session_state: random('') });
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const grantError = (error: string, description: string, status = 400) => {
      log.push({ endpoint: 'token', grantType: form.get('grant_type') ?? undefined, ok: false, error });
      sendJson(res, status, { error, error_description: description, error_codes: [] });
    };
    const form = new URLSearchParams(raw);
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return grantError('invalid_request', 'AADSTS900144: The request body must be form-encoded.');
    }
    if (form.get('client_id') !== clientId) {
      return grantError('unauthorized_client', 'AADSTS700016: Application not found.', 400);
    }
    if (form.get('client_secret') !== clientSecret) {
      return grantError('invalid_client', 'AADSTS7000215: Invalid client secret provided.', 401);
    }
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const issued = codes.get(code);
      if (!issued) return grantError('invalid_grant', 'AADSTS70000: The provided code is not valid.');
      if (issued.used) return grantError('invalid_grant', 'AADSTS54005: The code was already redeemed.');
      issued.used = true;
      if (Date.now() - issued.issuedAt > CODE_TTL_MS) {
        return grantError('invalid_grant', 'AADSTS70008: The provided code has expired.');
      }
      if (form.get('redirect_uri') !== issued.redirectUri) {
        return grantError('invalid_grant', 'AADSTS50148: The redirect_uri does not match the one used.');
      }
      const verifier = form.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== issued.challenge) {
        return grantError(
          'invalid_grant',
          'AADSTS501481: The code_verifier does not match the code_challenge.',
        );
      }
      log.push({ endpoint: 'token', grantType, ok: true });
      return sendJson(res, 200, issueTokens(issued.scope));
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      if (refuseRefresh || refreshTokens.get(refreshToken) !== true) {
        return grantError('invalid_grant', 'AADSTS700082: The refresh token has expired or was revoked.');
      }
      refreshTokens.set(refreshToken, false);
      log.push({ endpoint: 'token', grantType, ok: true });
      return sendJson(res, 200, issueTokens('offline_access User.Read Mail.Read Mail.ReadWrite'));
    }
    return grantError(
      'unsupported_grant_type',
      `AADSTS70003: grant_type ${grantType ?? ''} is not supported.`,
    );
  }

  function issueTokens(scope: string) {
    const accessToken = random('fake-at-');
    const refreshToken = random('fake-rt-');
    accessTokens.set(accessToken, { expiresAt: Date.now() + expiresIn * 1000 });
    refreshTokens.set(refreshToken, true);
    return {
      token_type: 'Bearer',
      scope,
      expires_in: expiresIn,
      ext_expires_in: expiresIn,
      access_token: accessToken,
      refresh_token: refreshToken,
    };
  }

  function authorized(req: IncomingMessage, res: ServerResponse) {
    const header = req.headers.authorization ?? '';
    const issued = header.startsWith('Bearer ') ? accessTokens.get(header.slice(7)) : undefined;
    if (issued && issued.expiresAt > Date.now()) return true;
    log.push({ endpoint: 'graph', ok: false, error: 'InvalidAuthenticationToken' });
    sendJson(res, 401, {
      error: {
        code: 'InvalidAuthenticationToken',
        message: issued
          ? 'Lifetime validation failed, the token is expired.'
          : 'Access token is empty or invalid.',
      },
    });
    return false;
  }

  /**
   * Inbox delta query: the first round lists every message page by page (`@odata.nextLink` with a
   * `$skiptoken`), the last page ends with a `@odata.deltaLink` whose `$deltatoken` lists only what
   * arrived after it. Page size from `Prefer: odata.maxpagesize=N` (default 10).
   */
  function delta(req: IncomingMessage, url: URL, res: ServerResponse) {
    const preferred = /odata\.maxpagesize=(\d+)/.exec(String(req.headers.prefer ?? ''));
    const pageSize = Math.max(1, Math.min(Number(preferred?.[1] ?? 10), 1000));
    const skip = url.searchParams.get('$skiptoken');
    const deltaToken = url.searchParams.get('$deltatoken');
    let from: number;
    let until: number;
    if (skip !== null) {
      const parsed = decodeToken(skip);
      if (!parsed)
        return sendJson(res, 400, { error: { code: 'BadRequest', message: 'Invalid skip token' } });
      ({ from, until } = parsed);
    } else {
      const after = deltaToken === null ? 0 : Number(decodeToken(deltaToken)?.until ?? NaN);
      if (!Number.isInteger(after) || after < 0) {
        return sendJson(res, 410, {
          error: { code: 'SyncStateNotFound', message: 'The delta token is invalid' },
        });
      }
      from = after;
      until = messages.length;
    }
    const page = messages.slice(from, Math.min(from + pageSize, until));
    const next = from + page.length;
    const link = (name: string, value: { from: number; until: number }) => {
      const target = new URL('/v1.0/me/mailFolders/inbox/messages/delta', origin());
      target.searchParams.set(name, encodeToken(value));
      return target.toString();
    };
    const body: Record<string, unknown> = {
      '@odata.context': `${origin()}/v1.0/$metadata#Collection(message)`,
      value: page,
    };
    if (next < until) body['@odata.nextLink'] = link('$skiptoken', { from: next, until });
    else body['@odata.deltaLink'] = link('$deltatoken', { from: until, until });
    sendJson(res, 200, body);
  }

  const encodeToken = (value: { from: number; until: number }) => b64url(Buffer.from(JSON.stringify(value)));
  function decodeToken(text: string): { from: number; until: number } | undefined {
    try {
      const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as {
        from: unknown;
        until: unknown;
      };
      if (Number.isInteger(value.from) && Number.isInteger(value.until))
        return value as { from: number; until: number };
    } catch {
      // falls through
    }
    return undefined;
  }

  function redirectAllowed(uri: string) {
    if (options.redirectUris) return options.redirectUris.includes(uri);
    try {
      return ['http:', 'https:'].includes(new URL(uri).protocol);
    } catch {
      return false;
    }
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** The authority host (MICROSOFT_AUTHORITY_HOST). */
    url: origin(),
    /** The Graph base URL (MICROSOFT_GRAPH_URL). */
    graphUrl: `${origin()}/v1.0`,
    clientId,
    clientSecret,
    tenant,
    account,
    log,
    /** The next authorizations are declined by the user (error=access_denied). */
    denyConsent(value = true) {
      denyConsent = value;
    },
    /** Every refresh token is refused (revoked consent, expired password…). */
    refuseRefresh(value = true) {
      refuseRefresh = value;
    },
    /** Lifetime of the access tokens issued from now on, in seconds. */
    setExpiresIn(seconds: number) {
      expiresIn = seconds;
    },
    /** Makes every access token issued so far expire now. */
    expireAccessTokens() {
      for (const issued of accessTokens.values()) issued.expiresAt = 0;
    },
    /** The next `times` delta requests answer `status` (e.g. 503). */
    failGraph(status: number, times = 1) {
      for (let i = 0; i < times; i++) graphFailures.push(status);
    },
    /**
     * Delivers a message to the inbox (seen by the next delta round); `to` and `cc` are shorthands
     * for the recipients' addresses (To defaults to the mailbox's own address).
     */
    addMessage(
      message: Partial<FakeMailMessage> & { subject: string; to?: string[]; cc?: string[] },
    ): FakeMailMessage {
      const { to, cc, ...fields } = message;
      const recipients = (addresses: string[]) =>
        addresses.map((address) => ({ emailAddress: { name: address.split('@')[0], address } }));
      const full: FakeMailMessage = {
        id: random('AAMk-'),
        bodyPreview: message.body?.content.slice(0, 255) ?? '',
        body: { contentType: 'text', content: '' },
        from: { emailAddress: { name: 'Grace Hopper', address: 'grace@fabrikam.example' } },
        toRecipients: recipients(to ?? [account.email]),
        ccRecipients: recipients(cc ?? []),
        receivedDateTime: new Date().toISOString(),
        internetMessageId: `<${random('')}@fabrikam.example>`,
        isRead: false,
        ...fields,
      };
      messages.push(full);
      return full;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

// As a program: the browser tests start it as a Playwright webServer.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const fake = await startFakeMicrosoftServer({
    port: Number(arg('port') ?? 5399),
    clientId: arg('client-id'),
    clientSecret: arg('client-secret'),
    redirectUris: arg('redirect-uri') ? [arg('redirect-uri')!] : undefined,
  });
  console.log(`fake Microsoft server on ${fake.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void fake.close().then(() => process.exit(0)));
  }
}
