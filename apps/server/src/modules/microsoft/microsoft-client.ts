import { createHash, randomBytes } from 'node:crypto';
import type { MicrosoftConfig } from '../../platform/env';
import type { Egress } from '../../platform/egress';

/**
 * The Microsoft identity platform (OAuth 2.0 authorization code flow with PKCE, v2.0 endpoints) and the
 * Graph calls the connection needs, as plain HTTP through the egress module: see
 * docs/decisions/0011-microsoft-oauth-plain-http.md. Nothing here logs or returns a token in an error.
 */

const MICROSOFT_SCOPES = ['offline_access', 'User.Read', 'Mail.Read', 'Mail.ReadWrite'] as const;

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
class MicrosoftServiceError extends Error {
  override readonly name = 'MicrosoftServiceError';
}

/** Graph refused the access token (401): it expired or was revoked before the time it said. */
export class MicrosoftUnauthorizedError extends MicrosoftServiceError {}

/** Graph no longer knows the delta link (410 Gone, `SyncStateNotFound`): start a fresh delta round. */
export class MicrosoftDeltaExpiredError extends Error {
  override readonly name = 'MicrosoftDeltaExpiredError';
}

/** The message fields the inbox delta query asks for. */
const INBOX_DELTA_SELECT = 'subject,from,toRecipients,ccRecipients,body,receivedDateTime,internetMessageId';
/** Messages per delta page (Graph's `odata.maxpagesize`); bodies make pages heavy. */
const DELTA_PAGE_SIZE = 25;
const DELTA_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const DELTA_TIMEOUT_MS = 60_000;

/** An inbox message as the email trigger reads it: addresses as sent, the body as plain text. */
export type InboxMessage = {
  /** Graph's message id. */
  id: string;
  subject: string;
  /** The sender's address ('' when Graph gives none). */
  from: string;
  to: string[];
  cc: string[];
  body: string;
  /** Graph's `receivedDateTime` (ISO 8601). */
  receivedAt: string;
  internetMessageId: string | null;
};
/** One page of a delta round: more pages (`nextLink`) or the round's end (`deltaLink`). */
export type InboxDeltaPage = { messages: InboxMessage[]; nextLink?: string; deltaLink?: string };

/** A PKCE pair (RFC 7636): 43-character verifier, S256 challenge. */
export function createPkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return { verifier, challenge };
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

    /**
     * One page of the inbox delta query: a fresh round when `link` is null, else the `@odata.nextLink`
     * or `@odata.deltaLink` Graph answered before (only ever sent to the configured Graph origin).
     * Removed messages are left out. Throws MicrosoftUnauthorizedError on 401,
     * MicrosoftDeltaExpiredError when Graph no longer knows `link`, MicrosoftServiceError otherwise.
     */
    async inboxDelta(accessToken: string, link: string | null): Promise<InboxDeltaPage> {
      const graph = new URL(config.graphUrl);
      if (link !== null && !sameOrigin(link, graph)) {
        throw new MicrosoftServiceError('Microsoft Graph answered a link to another host');
      }
      const url =
        link ?? `${config.graphUrl}/me/mailFolders/inbox/messages/delta?$select=${INBOX_DELTA_SELECT}`;
      const response = await egress.fetch(url, {
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'application/json',
          prefer: `outlook.body-content-type="text", odata.maxpagesize=${DELTA_PAGE_SIZE}`,
        },
        timeoutMs: DELTA_TIMEOUT_MS,
        maxResponseBytes: DELTA_MAX_RESPONSE_BYTES,
      });
      const body = await jsonOf(response.text());
      const code = graphErrorCode(body);
      if (response.status === 401) throw new MicrosoftUnauthorizedError('Microsoft Graph answered 401');
      if (link !== null && (response.status === 410 || code === 'SyncStateNotFound')) {
        throw new MicrosoftDeltaExpiredError('Microsoft Graph no longer knows the delta link');
      }
      if (response.status !== 200 || !Array.isArray(body.value)) {
        throw new MicrosoftServiceError(
          `Microsoft Graph answered ${response.status}${code ? ` (${code})` : ''}`,
        );
      }
      const nextLink = typeof body['@odata.nextLink'] === 'string' ? body['@odata.nextLink'] : undefined;
      const deltaLink = typeof body['@odata.deltaLink'] === 'string' ? body['@odata.deltaLink'] : undefined;
      if (!nextLink && !deltaLink) throw new MicrosoftServiceError('Microsoft Graph answered no delta link');
      const messages = (body.value as unknown[]).flatMap((item) => {
        const message = inboxMessage(item);
        return message ? [message] : [];
      });
      return { messages, ...(nextLink ? { nextLink } : { deltaLink }) };
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

function sameOrigin(link: string, graph: URL): boolean {
  try {
    return new URL(link).origin === graph.origin;
  } catch {
    return false;
  }
}

/** Graph's `error.code`, when it is a plain identifier (it is logged). */
function graphErrorCode(body: Record<string, unknown>): string | undefined {
  const error = body.error as { code?: unknown } | undefined;
  const code = error && typeof error === 'object' ? error.code : undefined;
  return typeof code === 'string' && /^[A-Za-z0-9_.]{1,64}$/.test(code) ? code : undefined;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const addressOf = (recipient: unknown) =>
  str((recipient as { emailAddress?: { address?: unknown } } | null)?.emailAddress?.address).trim();
const addressesOf = (list: unknown) =>
  Array.isArray(list) ? list.map(addressOf).filter((address) => address !== '') : [];

/** A delta entry as an InboxMessage; undefined for a removed message or one without an id. */
function inboxMessage(item: unknown): InboxMessage | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const raw = item as Record<string, unknown>;
  if ('@removed' in raw || typeof raw.id !== 'string' || !raw.id) return undefined;
  const body = (raw.body ?? {}) as { contentType?: unknown; content?: unknown };
  const content = str(body.content);
  return {
    id: raw.id,
    subject: str(raw.subject),
    from: addressOf(raw.from),
    to: addressesOf(raw.toRecipients),
    cc: addressesOf(raw.ccRecipients),
    body: str(body.contentType).toLowerCase() === 'html' ? htmlToText(content) : content,
    receivedAt: str(raw.receivedDateTime),
    internetMessageId: typeof raw.internetMessageId === 'string' ? raw.internetMessageId : null,
  };
}

/** Graph answers text when asked (Prefer outlook.body-content-type); this is the rare fallback. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h[1-6])>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}
