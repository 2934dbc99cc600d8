import { builtInDefaultModel, serverListedProviders } from '@crewline/contracts';

import type { LlmGateway } from './gateway';
import { LLM_PROVIDERS, PROVIDER_INFO } from './providers';
import type { LlmConnection, LlmProvider } from './types';

type ProviderModels = {
  name: string;
  models: string[];
  /** The model a new agent of this provider starts with ('' when the user must choose). */
  defaultModel: string;
  /** Local and Custom: why their server's own list is not given (the form then takes any name). */
  listError?: string;
};
export type ModelCatalogue = {
  /**
   * Models per provider: the provider's own list when a connection is given (cached per
   * cacheKey + provider), else or on failure the built-in list. Make cacheKey change when the
   * organization's configuration changes (e.g. include its updatedAt) so a new key shows at once.
   * `configuredDefaults` are the connections' own default models (Settings → Tools).
   */
  providers(
    connections: Partial<Record<LlmProvider, LlmConnection | undefined>>,
    cacheKey: string,
    configuredDefaults?: Partial<Record<LlmProvider, string | undefined>>,
  ): Promise<Record<LlmProvider, ProviderModels>>;
};

/**
 * A new agent's model: the connection's configured default; else OpenAI's and Anthropic's first
 * built-in model; else, for a local or custom server, the first model it reported — never a built-in
 * name, which such a server may not serve (the first run would fail) — or '' so the user chooses.
 */
function defaultModelOf(provider: LlmProvider, configured: string | undefined, reported: string[]) {
  const own = configured?.trim();
  if (own) return own;
  if (!SERVER_LISTED.has(provider)) return builtInDefaultModel(provider);
  return reported[0] ?? '';
}

/**
 * `reported` is what the provider's server listed (empty when it was not asked or failed), `error`
 * why it listed nothing.
 */
type Listing = { models: string[]; reported: string[]; error?: string };

/** The providers whose models only their own server knows: the form says why it cannot list them. */
const SERVER_LISTED = new Set<LlmProvider>(serverListedProviders);

// OpenAI's /models also lists embedding, audio, image and moderation models, which agents cannot use.
const NOT_CHAT =
  /embedding|whisper|tts|dall-e|gpt-image|moderation|davinci|babbage|realtime|transcribe|audio|search/;

export function createModelCatalogue(options: {
  gateway: Pick<LlmGateway, 'listModels'>;
  ttlMs?: number;
  /** A failed listing is retried sooner than a good one is refreshed. */
  failureTtlMs?: number;
  now?: () => number;
}): ModelCatalogue {
  const ttlMs = options.ttlMs ?? 300_000;
  const failureTtlMs = options.failureTtlMs ?? 30_000;
  const now = options.now ?? Date.now;
  // The promise is cached, so concurrent page loads share one request to the provider.
  const cache = new Map<string, { expiresAt: number; listing: Promise<Listing> }>();

  function builtIn(provider: LlmProvider) {
    return [...PROVIDER_INFO[provider].builtInModels];
  }

  async function fromProvider(provider: LlmProvider, connection: LlmConnection) {
    let error = 'the server reported no models';
    try {
      const ids = await options.gateway.listModels(connection);
      const usable = provider === 'openai' ? ids.filter((id) => !NOT_CHAT.test(id)) : ids;
      if (usable.length > 0) {
        const models = [...new Set(usable)].sort();
        return { ok: true, listing: { models, reported: models } };
      }
    } catch (cause) {
      // Fall through: the form still needs something to offer. The gateway's messages are the user's.
      error = cause instanceof Error ? cause.message : String(cause);
    }
    return { ok: false, listing: { models: builtIn(provider), reported: [], error } };
  }

  async function modelsFor(
    provider: LlmProvider,
    connection: LlmConnection | undefined,
    cacheKey: string,
  ): Promise<Listing> {
    if (!connection || !isConfigured(provider, connection))
      return { models: builtIn(provider), reported: [], error: 'no server is set up in Settings → Tools' };
    const key = `${cacheKey}\u0000${provider}`;
    const cached = cache.get(key);
    if (cached && cached.expiresAt > now()) return cached.listing;
    pruneExpired();
    const entry = {
      expiresAt: now() + ttlMs,
      listing: Promise.resolve<Listing>({ models: [], reported: [] }),
    };
    entry.listing = fromProvider(provider, connection).then(({ ok, listing }) => {
      if (!ok) entry.expiresAt = Math.min(entry.expiresAt, now() + failureTtlMs);
      return listing;
    });
    cache.set(key, entry);
    return entry.listing;
  }

  function pruneExpired() {
    const t = now();
    for (const [key, entry] of cache) if (entry.expiresAt <= t) cache.delete(key);
  }

  return {
    async providers(connections, cacheKey, configuredDefaults = {}) {
      const lists = await Promise.all(LLM_PROVIDERS.map((p) => modelsFor(p, connections[p], cacheKey)));
      return Object.fromEntries(
        LLM_PROVIDERS.map((p, i) => [
          p,
          {
            name: PROVIDER_INFO[p].name,
            models: lists[i].models,
            defaultModel: defaultModelOf(p, configuredDefaults[p], lists[i].reported),
            ...(SERVER_LISTED.has(p) && lists[i].error ? { listError: lists[i].error } : {}),
          },
        ]),
      ) as Record<LlmProvider, ProviderModels>;
    },
  };
}

function isConfigured(provider: LlmProvider, connection: LlmConnection) {
  if (PROVIDER_INFO[provider].requiresApiKey && !connection.apiKey) return false;
  return Boolean(connection.baseUrl ?? PROVIDER_INFO[provider].defaultBaseUrl);
}
