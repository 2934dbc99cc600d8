import { createHash, randomBytes } from 'node:crypto';
import type { MicrosoftConfig } from '../../platform/env';
import type { Egress } from '../../platform/egress';

/**
 * The Microsoft identity platform (OAuth 2.0 authorization code flow with PKCE, v2.0 endpoints) and the
 * Graph calls the connection needs, as plain HTTP through the egress module: see
 * docs/decisions/0011-microsoft-oauth-plain-http.md. Nothing here logs or returns a token in an error.
 */

export const MICROSOFT_SCOPES = ['offline_access', 'User.Read', 'Mail.Read', 'Mail.ReadWrite'] as const;

export type MicrosoftTokens = {
  accessToken: string;
  /** Absent when Microsoft did not rotate it (keep the previous one). */
  refreshToken: string | undefined;
  expiresOn: Date;
};
export type MicrosoftAccount = { email: string; name: string };

/** Microsoft refused the grant (`invalid_grant` and friends): the code or refresh token is no good. */
export class MicrosoftGrantError extends Error {
  override readonly name = 'MicrosoftGrantError';
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

/** Microsoft answered something unexpected (a 5xx, a non-JSON body, a Graph error). */
export class MicrosoftServiceError extends Error {
  override readonly name = 'MicrosoftServiceError';
}

/** A PKCE pair (RFC 7636): 43-character verifier, S256 challenge. */
export function createPkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return { verifier, challenge };
}

/** `host:port` allow-list entry for a configured URL (the egress module trusts these hosts). */
export function allowListEntry(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return `${parsed.hostname}:${port}`;
}

export function createMicrosoftClient(deps: {
  config: MicrosoftConfig;
  egress: Egress;
  redirectUri: string;
  now?: () => Date;
}) {
  const { config, egress, redirectUri } = deps;
  const now = deps.now ?? (() => new Date());
  const endpoint = (name: 'authorize' | 'token') =>
    `${config.authorityHost}/${encodeURIComponent(config.tenant)}/oauth2/v2.0/${name}`;

  async function tokenRequest(form: Record<string, string>): Promise<MicrosoftTokens> {
    const response = await egress.fetch(endpoint('token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: config.clientId ?? '',
        client_secret: config.clientSecret ?? '',
        ...form,
      }).toString(),
    });
    const body = await jsonOf(response.text());
    if (response.status >= 400 && response.status < 500 && typeof body.error === 'string') {
      // The description says why (AADSTS code and text); it names no token.
      const description = typeof body.error_description === 'string' ? body.error_description : body.error;
      throw new MicrosoftGrantError(body.error, firstLine(description));
    }
    if (response.status !== 200 || typeof body.access_token !== 'string') {
      throw new MicrosoftServiceError(`Microsoft sign-in answered ${response.status}`);
    }
    const expiresIn = Number(body.expires_in);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expiresOn: new Date(now().getTime() + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000),
    };
  }

  return {
    authorizeUrl(params: { state: string; codeChallenge: string }): string {
      const url = new URL(endpoint('authorize'));
      url.search = new URLSearchParams({
        client_id: config.clientId ?? '',
        response_type: 'code',
        redirect_uri: redirectUri,
        response_mode: 'query',
        scope: MICROSOFT_SCOPES.join(' '),
        state: params.state,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url.toString();
    },

    redeemCode(code: string, codeVerifier: string): Promise<MicrosoftTokens> {
      return tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
        scope: MICROSOFT_SCOPES.join(' '),
      });
    },

    refresh(refreshToken: string): Promise<MicrosoftTokens> {
      return tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        scope: MICROSOFT_SCOPES.join(' '),
      });
    },

    /** GET {graph}/me: the mailbox the tokens belong to. */
    async me(accessToken: string): Promise<MicrosoftAccount> {
      const response = await egress.fetch(`${config.graphUrl}/me`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      if (response.status !== 200)
        throw new MicrosoftServiceError(`Microsoft Graph answered ${response.status}`);
      const body = await jsonOf(response.text());
      const email = [body.mail, body.userPrincipalName].find((v) => typeof v === 'string' && v) as
        string | undefined;
      const name =
        typeof body.displayName === 'string' && body.displayName ? body.displayName : (email ?? '');
      return { email: email ?? '', name };
    },
  };
}
export type MicrosoftClient = ReturnType<typeof createMicrosoftClient>;

async function jsonOf(text: Promise<string>): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const firstLine = (text: string) => text.split(/\r?\n/)[0].slice(0, 300);
