import { createHash, randomBytes } from 'node:crypto';
import type { MicrosoftStatus } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import type { Config } from '../../platform/env';
import { AppError } from '../../platform/errors';
import type { SecretBox } from '../../platform/crypto';
import { createEgress, type Egress, type ReservedCheck } from '../../platform/egress';
import { allowListEntry } from '../../platform/egress/allow-list-entry';
import {
  createMicrosoftClient,
  createPkcePair,
  MicrosoftDeltaExpiredError,
  MicrosoftGrantError,
  MicrosoftUnauthorizedError,
  type InboxDeltaPage,
  type MicrosoftClient,
} from './microsoft-client';
import { systemActor, type RequestActor } from '../../platform/request-actor';
import type { MicrosoftRepository, MicrosoftTokenRow } from './microsoft.repository';

/** How long a sign-in may take between "Connect" and Microsoft's redirect back. */
export const STATE_TTL_MS = 10 * 60_000;
/** An access token this close to its expiry is refreshed before use. */
const EXPIRY_SKEW_MS = 60_000;

const CALLBACK_PATH = endpoints.microsoft.callback.path;

export type { InboxMessage } from './microsoft-client';

/**
 * One page of the inbox delta query, or why it gives none: no connection any more, a connection
 * Microsoft refused to renew (`broken`), or a delta link Graph no longer knows (`expired`: start a
 * fresh round).
 */
export type InboxDeltaResult =
  | { status: 'ok'; page: InboxDeltaPage }
  | { status: 'disconnected' }
  | { status: 'broken' }
  | { status: 'expired' };

export type CallbackQuery = { code?: string; state?: string; error?: string };
/** What the callback learned from the browser: whether it is the one that started the sign-in. */
/** Whether the answer came to the browser that started the sign-in, and from which address. */
export type CallbackBrowser = { sameBrowser: boolean; ip: string | null };
const ANOTHER_BROWSER_MESSAGE = 'This sign-in was started in another browser. Start it again from Settings.';
export type CallbackOutcome = { success: true } | { success: false; message: string };

class MicrosoftNotConfiguredError extends AppError {
  constructor(missing: string[]) {
    super(503, `Microsoft 365 is not configured on this server: set ${missing.join(' and ')}`);
  }
}

/** The egress the Microsoft client uses: the configured sign-in and Graph hosts are trusted like allow-list entries. */
export function createMicrosoftEgress(config: Config, reserved?: ReservedCheck): Egress {
  return createEgress({
    allowList: [
      ...config.egressAllowList,
      allowListEntry(config.microsoft.authorityHost),
      allowListEntry(config.microsoft.graphUrl),
    ],
    reserved,
  }).for('service');
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

export function createMicrosoftService(deps: {
  config: Config;
  repository: MicrosoftRepository;
  box: SecretBox;
  egress: Egress;
  now?: () => Date;
}) {
  const { config, repository, box } = deps;
  const now = deps.now ?? (() => new Date());
  const settings = config.microsoft;
  const redirectUri = `${config.publicUrl}${CALLBACK_PATH}`;
  const client: MicrosoftClient = createMicrosoftClient({
    config: settings,
    egress: deps.egress,
    redirectUri,
    now,
  });
  const missingSettings = () =>
    [
      settings.clientId ? undefined : 'MICROSOFT_CLIENT_ID',
      settings.clientSecret ? undefined : 'MICROSOFT_CLIENT_SECRET',
    ].filter((name): name is string => name !== undefined);
  const isConfigured = () => missingSettings().length === 0;
  /** One refresh per organization at a time: Microsoft rotates refresh tokens. */
  const refreshing = new Map<string, Promise<string | null>>();

  const seal = (value: string, organizationId: string) => box.encrypt(value, organizationId);
  const open = (value: string, organizationId: string) => box.decrypt(value, organizationId);

  async function refresh(row: MicrosoftTokenRow): Promise<string | null> {
    const organizationId = row.organizationId;
    if (!row.refreshToken) {
      await repository.markBroken(organizationId);
      return null;
    }
    try {
      const tokens = await client.refresh(open(row.refreshToken, organizationId));
      await repository.updateTokens(organizationId, {
        accessToken: seal(tokens.accessToken, organizationId),
        refreshToken: tokens.refreshToken ? seal(tokens.refreshToken, organizationId) : row.refreshToken,
        expiresOn: tokens.expiresOn,
      });
      return tokens.accessToken;
    } catch (error) {
      // A refused grant will not get better by retrying: the user has to connect again. Anything else
      // (Microsoft or the network down) is passed on and the next call tries again.
      if (error instanceof MicrosoftGrantError) {
        await repository.markBroken(organizationId);
        return null;
      }
      throw error;
    }
  }

  /**
   * A usable access token for the organization's mailbox, refreshed (and stored) when it is about to
   * expire or `forceRefresh` says Graph refused it; null when not connected or when Microsoft refused
   * the refresh (the connection is then marked broken). Network and server failures throw.
   */
  async function accessTokenFor(
    organizationId: string,
    options: { forceRefresh?: boolean } = {},
  ): Promise<string | null> {
    const row = await repository.getTokens(organizationId);
    if (!row || row.brokenAt) return null;
    const fresh = row.expiresOn && row.expiresOn.getTime() - EXPIRY_SKEW_MS > now().getTime();
    if (fresh && !options.forceRefresh) return open(row.accessToken, organizationId);
    const running = refreshing.get(organizationId);
    if (running) return running;
    const attempt = refresh(row).finally(() => refreshing.delete(organizationId));
    refreshing.set(organizationId, attempt);
    return attempt;
  }

  return {
    isConfigured,
    /** Where Microsoft sends the browser back (the sign-in's browser binding is scoped to it). */
    redirectUri,

    async status(organizationId: string): Promise<MicrosoftStatus> {
      const configured = isConfigured();
      const row = await repository.getTokens(organizationId);
      if (!row) return { connected: false, configured };
      const info = row.accountInfo ?? {};
      const account = {
        email: typeof info.email === 'string' ? info.email : '',
        name: typeof info.name === 'string' ? info.name : '',
      };
      return { connected: true, configured, account, ...(row.brokenAt ? { broken: true } : {}) };
    },

    /**
     * Starts a sign-in for this user and organization: the URL of Microsoft's consent page, and the
     * state it carries (for the route to bind to the browser, never to be sent in a body).
     */
    async start(userId: string, organizationId: string): Promise<{ authUrl: string; state: string }> {
      const missing = missingSettings();
      if (missing.length > 0) throw new MicrosoftNotConfiguredError(missing);
      const state = randomBytes(32).toString('base64url');
      const pkce = createPkcePair();
      await repository.saveState({
        stateHash: sha256(state),
        userId,
        organizationId,
        codeVerifier: seal(pkce.verifier, organizationId),
        expiresAt: new Date(now().getTime() + STATE_TTL_MS),
      });
      return { authUrl: client.authorizeUrl({ state, codeChallenge: pkce.challenge }), state };
    },

    /**
     * Microsoft's redirect back: consumes the state, and only in the browser that started the sign-in
     * redeems the code and stores the tokens sealed.
     */
    async complete(query: CallbackQuery, browser: CallbackBrowser): Promise<CallbackOutcome> {
      const fail = (message: string): CallbackOutcome => ({ success: false, message });
      if (!query.state) return fail('The sign-in answer is incomplete. Start again from Settings.');
      // Taken (deleted) before anything else: a state is good for one answer, whatever the answer is.
      // Even another browser's answer spends it, so the address it landed on (code and state) cannot
      // be finished later in the browser that holds the cookie.
      const pending = await repository.takeState(sha256(query.state));
      if (!browser.sameBrowser) return fail(ANOTHER_BROWSER_MESSAGE);
      if (!pending || pending.expiresAt.getTime() <= now().getTime()) {
        return fail('This sign-in has expired or was already used. Start again from Settings.');
      }
      if (query.error) {
        return fail(
          query.error === 'access_denied'
            ? 'The Microsoft 365 permissions were declined.'
            : `Microsoft refused the sign-in (${/^[a-z_]{1,64}$/.test(query.error) ? query.error : 'error'}).`,
        );
      }
      if (!query.code) return fail('The sign-in answer is incomplete. Start again from Settings.');
      if (!isConfigured()) return fail('Microsoft 365 is not configured on this server.');
      const organizationId = pending.organizationId;
      try {
        const tokens = await client.redeemCode(query.code, open(pending.codeVerifier, organizationId));
        const account = await client.me(tokens.accessToken);
        await repository.saveTokens(
          organizationId,
          {
            accessToken: seal(tokens.accessToken, organizationId),
            refreshToken: tokens.refreshToken ? seal(tokens.refreshToken, organizationId) : null,
            expiresOn: tokens.expiresOn,
            accountInfo: { email: account.email, name: account.name, connectedBy: pending.userId },
          },
          { userId: pending.userId, ip: browser.ip },
        );
        return { success: true };
      } catch (error) {
        if (error instanceof MicrosoftGrantError)
          return fail(`Microsoft refused the sign-in: ${error.message}`);
        return fail('Could not complete the sign-in with Microsoft. Try again in a moment.');
      }
    },

    /** Forgets the mailbox's tokens; without an actor (tests, cleanups) the system is recorded. */
    async disconnect(organizationId: string, actor: RequestActor = systemActor): Promise<void> {
      await repository.deleteTokens(organizationId, actor);
    },

    accessTokenFor,

    /**
     * One page of the organization's inbox delta query (`link` null: a fresh round; else a next or
     * delta link Graph answered). An access token Graph refuses (401) is renewed once and the page
     * asked again. Throws on network or Graph failures.
     */
    async readInboxDelta(organizationId: string, link: string | null): Promise<InboxDeltaResult> {
      const unavailable = async (): Promise<InboxDeltaResult> =>
        (await repository.getTokens(organizationId))?.brokenAt
          ? { status: 'broken' }
          : { status: 'disconnected' };
      const read = async (token: string): Promise<InboxDeltaResult> => {
        try {
          return { status: 'ok', page: await client.inboxDelta(token, link) };
        } catch (error) {
          if (error instanceof MicrosoftDeltaExpiredError) return { status: 'expired' };
          throw error;
        }
      };
      let token = await accessTokenFor(organizationId);
      if (!token) return unavailable();
      try {
        return await read(token);
      } catch (error) {
        if (!(error instanceof MicrosoftUnauthorizedError)) throw error;
      }
      token = await accessTokenFor(organizationId, { forceRefresh: true });
      if (!token) return unavailable();
      return read(token);
    },
  };
}
export type MicrosoftService = ReturnType<typeof createMicrosoftService>;
