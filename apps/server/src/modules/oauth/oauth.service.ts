import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  OAUTH_ACCESS_TOKEN_SECONDS,
  OAUTH_CODE_SECONDS,
  OAUTH_CONSENT_PAGE,
  OAUTH_REFRESH_TOKEN_SECONDS,
  oauthMessages,
  type OAuthConsentInfo,
  type OAuthConsentInput,
  type OAuthConsentQuery,
  type OAuthConsentResult,
  type OAuthGrant,
} from '@crewline/contracts';
import { BadRequestError, ForbiddenError, NotFoundError, TooManyRequestsError } from '../../platform/errors';
import { isUuid } from '../../platform/ids';
import { retryAfterSeconds, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { OAuthRepository } from './oauth.repository';

/** An error of the OAuth protocol's own routes, answered as RFC 6749 §5.2 says: `{ error, error_description }`. */
export class OAuthProtocolError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/**
 * Registrations per client address and hour (the route is public), as many as signups by default:
 * hosted connectors (Claude, ChatGPT) register every user's client from their own servers' addresses.
 */
const REGISTRATIONS_PER_HOUR = 100;
const HOUR_SECONDS = 60 * 60;
/** A grant's last use is stamped at most this often (its tokens may be used many times a minute). */
const LAST_USED_EVERY_SECONDS = 60;
const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 7636 §4.1: 43 to 128 unreserved characters; an S256 challenge is 43 base64url characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const randomToken = (prefix = '') => `${prefix}${randomBytes(32).toString('base64url')}`;
/** Access and refresh tokens carry a prefix, so a leaked one is easy to recognise (never `crw_`: API keys). */
const ACCESS_PREFIX = 'crwat_';
const REFRESH_PREFIX = 'crwrt_';

/** The URL of a registered redirect address is https, or http on a loopback host only (RFC 8252 §7.3). */
function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return 'A redirect URI must be a URL.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value.slice(0, 200)} is not a URL.`;
  }
  if (url.hash) return 'A redirect URI must not have a fragment.';
  if (url.username || url.password) return 'A redirect URI must not carry credentials.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'A redirect URI must use https (or http on localhost or 127.0.0.1).';
}

/** `uri` with the query parameters added (the ones it has kept). */
function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

function sameChallenge(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

const field = (params: Record<string, unknown>, name: string): string | undefined => {
  const value = params[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * Crewline as the OAuth 2.1 authorization server of its own MCP endpoint (docs/security.md, OAuth for
 * MCP clients): public clients registered dynamically, PKCE (S256) only, a signed-in member's consent
 * for one organization, codes and tokens stored as SHA-256 only, refresh tokens rotated with reuse
 * detection, and grants revoked in Settings.
 */
export function createOAuthService(deps: {
  repository: OAuthRepository;
  rateLimits: RateLimitRepository;
  /** The server's public URL without a trailing slash: the issuer. */
  publicUrl: string;
}) {
  const { repository, publicUrl } = deps;
  const issuer = publicUrl;
  /** The resource every token is for (RFC 8707): the MCP endpoint. */
  const resource = `${publicUrl}/mcp`;

  /** The client and the redirect address, which must be exactly one it registered. */
  async function registeredClient(clientId: string | undefined, redirectUri: string | undefined) {
    const client = clientId && clientId.length <= 200 ? await repository.getClient(clientId) : undefined;
    if (!client || !redirectUri || !client.redirectUris.includes(redirectUri)) return undefined;
    return client;
  }

  async function issueTokens(grantId: string) {
    const access = randomToken(ACCESS_PREFIX);
    const refresh = randomToken(REFRESH_PREFIX);
    const now = Date.now();
    await repository.addTokens(grantId, [
      {
        tokenHash: sha256(access),
        kind: 'access',
        resource,
        expiresAt: new Date(now + OAUTH_ACCESS_TOKEN_SECONDS * 1000),
      },
      {
        tokenHash: sha256(refresh),
        kind: 'refresh',
        resource,
        expiresAt: new Date(now + OAUTH_REFRESH_TOKEN_SECONDS * 1000),
      },
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: OAUTH_ACCESS_TOKEN_SECONDS,
      refresh_token: refresh,
    };
  }

  const invalidGrant = (description: string) => new OAuthProtocolError('invalid_grant', description);

  /** A resource parameter names the MCP endpoint, or is left out. */
  function checkResource(value: string | undefined) {
    if (value !== undefined && value !== resource) {
      throw new OAuthProtocolError('invalid_target', `The only resource is ${resource}.`);
    }
  }

  return {
    resource,
    issuer,

    /** RFC 9728: what the MCP endpoint is and who issues its tokens. */
    protectedResourceMetadata() {
      return {
        resource,
        authorization_servers: [issuer],
        bearer_methods_supported: ['header'],
        resource_name: 'Crewline',
      };
    },

    /** RFC 8414, with RFC 9207's `iss` on the authorization response. */
    authorizationServerMetadata() {
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      };
    },

    /** RFC 7591 dynamic registration of a public client. */
    async register(body: unknown, ip: string) {
      const taken = await deps.rateLimits.take('oauth-register', ip, REGISTRATIONS_PER_HOUR, HOUR_SECONDS);
      if (!taken.allowed) {
        throw new TooManyRequestsError(
          'Too many client registrations from this address.',
          retryAfterSeconds(taken.oldest, HOUR_SECONDS),
        );
      }
      const metadata = (
        typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}
      ) as Record<string, unknown>;
      const bad = (description: string) => new OAuthProtocolError('invalid_client_metadata', description);
      const uris = metadata.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
        throw new OAuthProtocolError('invalid_redirect_uri', `Give 1 to ${MAX_REDIRECT_URIS} redirect_uris.`);
      }
      for (const uri of uris) {
        const problem = redirectUriProblem(uri);
        if (problem) throw new OAuthProtocolError('invalid_redirect_uri', problem);
      }
      const method = metadata.token_endpoint_auth_method;
      if (method !== undefined && method !== 'none') {
        throw bad('Only public clients are supported: token_endpoint_auth_method must be "none".');
      }
      const grantTypes = metadata.grant_types;
      if (
        grantTypes !== undefined &&
        (!Array.isArray(grantTypes) ||
          grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
      ) {
        throw bad('grant_types may be authorization_code and refresh_token only.');
      }
      const responseTypes = metadata.response_types;
      if (
        responseTypes !== undefined &&
        (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== 'code'))
      ) {
        throw bad('response_types may be code only.');
      }
      const name = metadata.client_name;
      if (name !== undefined && (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)) {
        throw bad('client_name must be a text of 1 to 100 characters.');
      }
      const redirectUris = uris as string[];
      const clientName = typeof name === 'string' ? name.trim() : new URL(redirectUris[0]).host;
      const client = await repository.createClient({ id: randomToken(), clientName, redirectUris });
      return {
        client_id: client.id,
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
        client_name: client.clientName,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },

    /**
     * GET /oauth/authorize: where the browser goes. An unknown client or redirect address is an error
     * page (never a redirect to an address nobody registered); another problem goes back to the
     * client's address with `error`; a good request goes on to the web app's consent page.
     */
    async authorize(
      query: Record<string, unknown>,
    ): Promise<{ redirect: string } | { error: OAuthProtocolError }> {
      const redirectUri = field(query, 'redirect_uri');
      const client = await registeredClient(field(query, 'client_id'), redirectUri);
      if (!client || !redirectUri) {
        return { error: new OAuthProtocolError('invalid_request', oauthMessages.clientNotFound) };
      }
      const state = field(query, 'state');
      const back = (error: string, description: string) => ({
        redirect: withParams(redirectUri, { error, error_description: description, state, iss: issuer }),
      });
      if (query.response_type !== 'code')
        return back('unsupported_response_type', 'response_type must be code.');
      const challenge = field(query, 'code_challenge');
      if (!challenge || !CHALLENGE.test(challenge) || query.code_challenge_method !== 'S256') {
        return back('invalid_request', 'PKCE is required: a code_challenge with code_challenge_method S256.');
      }
      const asked = field(query, 'resource');
      if (asked !== undefined && asked !== resource)
        return back('invalid_target', `The only resource is ${resource}.`);
      const consent = new URL(`${publicUrl}${OAUTH_CONSENT_PAGE}`);
      consent.searchParams.set('client_id', client.id);
      consent.searchParams.set('redirect_uri', redirectUri);
      consent.searchParams.set('code_challenge', challenge);
      if (state !== undefined) consent.searchParams.set('state', state);
      if (asked !== undefined) consent.searchParams.set('resource', asked);
      return { redirect: consent.toString() };
    },

    /** GET /api/oauth/consent: the app the consent page names. */
    async consentInfo(query: OAuthConsentQuery): Promise<OAuthConsentInfo> {
      const client = await registeredClient(query.clientId, query.redirectUri);
      if (!client) throw new BadRequestError(oauthMessages.clientNotFound);
      return { clientName: client.clientName, redirectHost: new URL(query.redirectUri).host };
    },

    /**
     * POST /api/oauth/consent: Allow makes (or reuses) the member's grant for the organization and a
     * single-use code of one minute; Deny answers `access_denied`. Either way the browser goes back to
     * the client's registered address, with `state` and `iss`.
     */
    async consent(auth: AuthContext, input: OAuthConsentInput): Promise<OAuthConsentResult> {
      const client = await registeredClient(input.clientId, input.redirectUri);
      if (!client) throw new BadRequestError(oauthMessages.clientNotFound);
      const back = (params: Record<string, string | undefined>) => ({
        redirectTo: withParams(input.redirectUri, { ...params, state: input.state, iss: issuer }),
      });
      if (!input.allow) return back({ error: 'access_denied', error_description: 'The user denied access.' });
      if (
        !CHALLENGE.test(input.codeChallenge) ||
        (input.resource !== undefined && input.resource !== resource)
      ) {
        throw new BadRequestError(oauthMessages.badRequest);
      }
      const organizationId = input.organizationId;
      if (
        !organizationId ||
        !isUuid(organizationId) ||
        !(await repository.isMember(auth.userId, organizationId))
      ) {
        throw new ForbiddenError(oauthMessages.notMember);
      }
      const code = randomToken();
      await repository.grantWithCode(
        { clientId: client.id, organizationId, userId: auth.userId },
        {
          tokenHash: sha256(code),
          codeChallenge: input.codeChallenge,
          redirectUri: input.redirectUri,
          resource,
          expiresAt: new Date(Date.now() + OAUTH_CODE_SECONDS * 1000),
        },
      );
      return back({ code });
    },

    /** POST /oauth/token (RFC 6749 §4.1.3 and §6, form-encoded). */
    async token(params: Record<string, unknown>) {
      const grantType = field(params, 'grant_type');
      const clientId = field(params, 'client_id');
      if (!grantType) throw new OAuthProtocolError('invalid_request', 'grant_type is required.');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new OAuthProtocolError('unsupported_grant_type', 'Use authorization_code or refresh_token.');
      }
      if (!clientId) throw new OAuthProtocolError('invalid_request', 'client_id is required.');
      checkResource(field(params, 'resource'));

      if (grantType === 'authorization_code') {
        const code = field(params, 'code');
        const verifier = field(params, 'code_verifier');
        const redirectUri = field(params, 'redirect_uri');
        if (!code || !verifier || !redirectUri) {
          throw new OAuthProtocolError(
            'invalid_request',
            'code, code_verifier and redirect_uri are required.',
          );
        }
        if (!VERIFIER.test(verifier))
          throw new OAuthProtocolError('invalid_request', 'The code_verifier is malformed.');
        const used = await repository.useToken(sha256(code), 'code');
        if (!used) throw invalidGrant('The code is invalid.');
        if ('reused' in used) {
          // A code used twice was intercepted: what it gave stops working (RFC 6749 §4.1.2).
          await repository.revokeGrant(used.reused);
          throw invalidGrant('The code was already used.');
        }
        const { token } = used;
        if (token.expired || token.grantRevoked) throw invalidGrant('The code has expired.');
        if (token.clientId !== clientId || token.redirectUri !== redirectUri) {
          throw invalidGrant('The code was issued to another client or redirect URI.');
        }
        if (!token.codeChallenge || !sameChallenge(verifier, token.codeChallenge)) {
          throw invalidGrant('The code_verifier does not match the code_challenge.');
        }
        return issueTokens(token.grantId);
      }

      const refresh = field(params, 'refresh_token');
      if (!refresh) throw new OAuthProtocolError('invalid_request', 'refresh_token is required.');
      const used = await repository.useToken(sha256(refresh), 'refresh');
      if (!used) throw invalidGrant('The refresh token is invalid.');
      if ('reused' in used) {
        // Rotation: a refresh token comes back only if it was copied; the grant ends for both holders.
        await repository.revokeGrant(used.reused);
        throw invalidGrant('The refresh token was already used.');
      }
      const { token } = used;
      if (token.expired || token.grantRevoked)
        throw invalidGrant('The refresh token has expired or was revoked.');
      if (token.clientId !== clientId) throw invalidGrant('The refresh token was issued to another client.');
      return issueTokens(token.grantId);
    },

    /**
     * POST /oauth/revoke (RFC 7009): a refresh token ends its grant, an access token itself. Unknown
     * tokens and other clients' tokens are answered the same, with nothing done.
     */
    async revoke(params: Record<string, unknown>): Promise<void> {
      const token = field(params, 'token');
      if (!token) throw new OAuthProtocolError('invalid_request', 'token is required.');
      const found = await repository.findToken(sha256(token));
      const clientId = field(params, 'client_id');
      if (!found || (clientId !== undefined && found.clientId !== clientId)) return;
      if (found.kind === 'refresh') await repository.revokeGrant(found.grantId);
      else if (found.kind === 'access') await repository.expireToken(sha256(token));
    },

    /**
     * Who an access token on `/mcp` acts for, or undefined when it is unknown, expired, not an access
     * token, its grant revoked or its member gone. Stamps the grant's last use, at most once a minute.
     */
    async verifyAccessToken(
      token: string,
    ): Promise<{ organizationId: string; userId: string; clientName: string; grantId: string } | undefined> {
      if (token.length > 200) return undefined;
      const grant = await repository.accessTokenGrant(sha256(token));
      if (!grant) return undefined;
      if (!grant.lastUsedAt || Date.now() - grant.lastUsedAt.getTime() > LAST_USED_EVERY_SECONDS * 1000) {
        await repository.touchGrant(grant.grantId, LAST_USED_EVERY_SECONDS);
      }
      return {
        organizationId: grant.organizationId,
        userId: grant.userId,
        clientName: grant.clientName,
        grantId: grant.grantId,
      };
    },

    /** Settings: the organization's connected apps (owners and admins see all, a member their own). */
    async listGrants(auth: AuthContext): Promise<OAuthGrant[]> {
      const manager = auth.role === 'owner' || auth.role === 'admin';
      const rows = await repository.listGrants(auth.organizationId, manager ? undefined : auth.userId);
      return rows.map((row) => ({
        id: row.id,
        clientName: row.clientName,
        grantedBy: { id: row.userId, name: row.userName ?? '' },
        createdAt: row.createdAt.toISOString(),
        lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
        canRevoke: manager || row.userId === auth.userId,
      }));
    },

    /** Settings: revoke a connected app (owners and admins, or the member who connected it). */
    async revokeGrant(auth: AuthContext, id: string): Promise<void> {
      const grant = isUuid(id) ? await repository.getGrant(auth.organizationId, id) : undefined;
      if (!grant) throw new NotFoundError(oauthMessages.grantNotFound);
      const manager = auth.role === 'owner' || auth.role === 'admin';
      if (!manager && grant.userId !== auth.userId) throw new ForbiddenError(oauthMessages.revokeNotAllowed);
      await repository.revokeGrant(grant.id, auth.organizationId);
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
