import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { mcpMessages, type McpOauthStatus } from '@crewline/contracts';
import type { SecretBox } from '../../platform/crypto';
import { BadRequestError } from '../../platform/errors';
import { egressFetch, type Egress } from '../../platform/egress';
import type { McpOauthRepository } from './mcp-oauth.repository';
import { loadOnce } from '../../platform/load-once';

/** How long a started sign-in stays valid (its state, its binding cookie). */
export const MCP_OAUTH_STATE_TTL_MS = 10 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

/**
 * The MCP SDK's OAuth flow, loaded by the first sign-in step, not at start: the SDK costs ~6.5 MiB of
 * memory in a server whose connections never sign in (runs load it in runtime/mcp-client.ts).
 */
const loadSdk = loadOnce(() => import('@modelcontextprotocol/client'));

/** What an MCP connection keeps of its OAuth sign-in, sealed as one JSON (docs/security.md, MCP servers). */
type OauthState = {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  /** Only while a sign-in is in progress (its flow row), never with the connection. */
  verifier?: string;
};

/** The connection an OAuth provider works for. */
export type McpOauthConnection = { organizationId: string; toolId: string; name: string; url: string };

/** A refresh the authorization server refused, or a connection never signed in: an admin must sign in. */
class McpReconnectError extends Error {
  constructor(name: string) {
    super(mcpMessages.reconnect(name));
    this.name = 'McpReconnectError';
  }
}

export type McpOauthOutcome = { success: true } | { success: false; message: string };

const ANOTHER_BROWSER =
  'This sign-in was started in another browser. Start again from Settings → Tools in this browser.';

/**
 * OAuth 2.1 for MCP server connections, on the official SDK's flow (`auth`): discovery from the
 * server's protected-resource metadata, dynamic client registration, PKCE S256 and the RFC 8707
 * resource, RFC 9207 `iss` checked. The sign-in is an admin's, in their browser (bound by the routes,
 * as the Microsoft 365 one); runs then use the stored tokens, refreshed by the SDK on a 401, and a
 * refused refresh marks the connection for reconnecting. Every request goes through the egress module.
 */
export function createMcpOauth(deps: {
  repository: McpOauthRepository;
  box: SecretBox;
  egress: Egress<'tool'>;
  /** The server's public URL: the sign-in comes back to `<publicUrl>/api/mcp-oauth/callback`. */
  publicUrl: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const redirectUri = `${deps.publicUrl.replace(/\/+$/, '')}/api/mcp-oauth/callback`;
  const fetchFn = egressFetch(deps.egress);
  const clientMetadata: OAuthClientMetadata = {
    client_name: 'Crewline',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };

  const seal = (state: OauthState, organizationId: string) =>
    deps.box.encrypt(JSON.stringify(state), organizationId);
  const open = (sealed: string | null | undefined, organizationId: string): OauthState =>
    sealed ? (JSON.parse(deps.box.decrypt(sealed, organizationId)) as OauthState) : {};

  /** The SDK's storage and redirect surface over one state in memory; `hooks` say what outlives it. */
  function provider(
    state: OauthState,
    hooks: {
      redirect(url: URL): void;
      saveTokens?(state: OauthState): Promise<void>;
      invalidated?(scope: string): Promise<void>;
    },
  ): OAuthClientProvider {
    return {
      get redirectUrl() {
        return redirectUri;
      },
      get clientMetadata() {
        return clientMetadata;
      },
      clientInformation: () => state.client,
      saveClientInformation: (client) => void (state.client = client),
      tokens: () => state.tokens,
      async saveTokens(tokens) {
        state.tokens = tokens;
        await hooks.saveTokens?.(state);
      },
      redirectToAuthorization: (url) => hooks.redirect(url),
      saveCodeVerifier: (verifier) => void (state.verifier = verifier),
      codeVerifier() {
        if (!state.verifier) throw new Error('No sign-in is in progress for this connection.');
        return state.verifier;
      },
      saveDiscoveryState: (discovery) => void (state.discovery = discovery),
      discoveryState: () => state.discovery,
      async invalidateCredentials(scope) {
        if (scope === 'tokens' || scope === 'all') state.tokens = undefined;
        if (scope === 'client' || scope === 'all') state.client = undefined;
        if (scope === 'discovery' || scope === 'all') state.discovery = undefined;
        await hooks.invalidated?.(scope);
      },
    };
  }

  return {
    redirectUri,

    /**
     * Starts an admin's sign-in to the connection's server: the authorization server's URL for the
     * browser, and the state (for the route to bind to the browser, never sent in a body). A client
     * registered before is reused.
     */
    async start(connection: McpOauthConnection, userId: string): Promise<{ authUrl: string; state: string }> {
      const stored = await deps.repository.read(connection.organizationId, connection.toolId);
      const state: OauthState = { client: open(stored?.sealed, connection.organizationId).client };
      let authUrl: URL | undefined;
      const flowState = randomBytes(32).toString('base64url');
      const sdkProvider = provider(state, { redirect: (url) => (authUrl = url) });
      sdkProvider.state = () => flowState;
      const { auth } = await loadSdk();
      try {
        await auth(sdkProvider, { serverUrl: connection.url, fetchFn });
      } catch (error) {
        // No protected-resource or authorization-server metadata, a refused registration, an address
        // the egress refuses: the admin reads why, in the dialog that started it.
        const reason = error instanceof Error ? error.message : String(error);
        throw new BadRequestError(
          `Could not start signing in to the MCP server at ${new URL(connection.url).host}: ${reason.slice(0, 300)}`,
        );
      }
      if (!authUrl) throw new BadRequestError('The MCP server did not ask for a sign-in.');
      await deps.repository.saveFlow({
        stateHash: sha256(flowState),
        toolId: connection.toolId,
        organizationId: connection.organizationId,
        userId,
        sealed: seal(state, connection.organizationId),
        expiresAt: new Date(now().getTime() + MCP_OAUTH_STATE_TTL_MS),
      });
      return { authUrl: authUrl.toString(), state: flowState };
    },

    /**
     * The authorization server's redirect back: consumes the state, and only in the browser that
     * started the sign-in redeems the code (checking `iss` and PKCE through the SDK) and stores the
     * tokens sealed. `connection` reads the connection the flow was for (its URL may have moved).
     */
    async complete(
      query: { code?: string; state?: string; iss?: string; error?: string },
      /** Whether it is the browser that started it, and its address (the audit log's). */
      browser: { sameBrowser: boolean; ip?: string | null },
      connection: (organizationId: string, toolId: string) => Promise<McpOauthConnection | undefined>,
    ): Promise<McpOauthOutcome> {
      const fail = (message: string): McpOauthOutcome => ({ success: false, message });
      if (!query.state) return fail('The sign-in answer is incomplete. Start again from Settings → Tools.');
      // Taken before anything else: a state is good for one answer, whatever the answer is.
      const flow = await deps.repository.takeFlow(sha256(query.state));
      if (!browser.sameBrowser) return fail(ANOTHER_BROWSER);
      if (!flow || flow.expiresAt.getTime() <= now().getTime())
        return fail('This sign-in has expired or was already used. Start again from Settings → Tools.');
      if (query.error) {
        // The authorization server's words are not shown: a mix-up attacker could write them.
        return fail(
          query.error === 'access_denied'
            ? 'The MCP server’s sign-in was declined.'
            : `The MCP server refused the sign-in (${/^[a-z_]{1,64}$/.test(query.error) ? query.error : 'error'}).`,
        );
      }
      if (!query.code) return fail('The sign-in answer is incomplete. Start again from Settings → Tools.');
      const target = await connection(flow.organizationId, flow.toolId);
      if (!target) return fail('This MCP server connection no longer exists.');
      const state = open(flow.sealed, flow.organizationId);
      const { auth } = await loadSdk();
      try {
        const result = await auth(provider(state, { redirect: () => undefined }), {
          serverUrl: target.url,
          authorizationCode: query.code,
          iss: query.iss,
          fetchFn,
        });
        if (result !== 'AUTHORIZED' || !state.tokens) return fail('The MCP server did not grant access.');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return fail(`The MCP server refused the sign-in: ${reason}`);
      }
      const { verifier: _spent, ...kept } = state;
      await deps.repository.signedIn(flow.organizationId, flow.toolId, seal(kept, flow.organizationId), {
        userId: flow.userId,
        ip: browser.ip ?? null,
      });
      return { success: true };
    },

    /**
     * The SDK provider a listing or a call of the connection uses (the transport's `authProvider`):
     * the stored tokens; a refresh is stored as it happens; a refused one marks the connection for
     * reconnecting (unless another process refreshed meanwhile: then its tokens are taken) and the
     * request fails with `McpReconnectError`, whose message tells what to do.
     */
    async providerFor(connection: McpOauthConnection): Promise<OAuthClientProvider> {
      const { organizationId, toolId } = connection;
      let stored = await deps.repository.read(organizationId, toolId);
      if (!stored?.sealed || stored.status === 'reconnect') throw new McpReconnectError(connection.name);
      let loaded = stored.sealed;
      const state = open(loaded, organizationId);
      return provider(state, {
        redirect: () => {
          throw new McpReconnectError(connection.name);
        },
        async saveTokens(current) {
          loaded = seal(
            { tokens: current.tokens, client: current.client, discovery: current.discovery },
            organizationId,
          );
          await deps.repository.save(organizationId, toolId, loaded);
        },
        async invalidated(scope) {
          if (scope !== 'tokens' && scope !== 'all') return;
          if (await deps.repository.markReconnect(organizationId, toolId, loaded)) return;
          // Another process refreshed first (the refresh token rotated): go on with its tokens.
          stored = await deps.repository.read(organizationId, toolId);
          if (stored?.sealed && stored.status === 'connected') {
            loaded = stored.sealed;
            Object.assign(state, open(loaded, organizationId));
          }
        },
      });
    },

    /** A connection's OAuth state for its listing (`mcp-tools`): null when it does not use OAuth. */
    async status(organizationId: string, toolId: string): Promise<McpOauthStatus> {
      return (await deps.repository.read(organizationId, toolId))?.status ?? 'disconnected';
    },
  };
}
export type McpOauth = ReturnType<typeof createMcpOauth>;
