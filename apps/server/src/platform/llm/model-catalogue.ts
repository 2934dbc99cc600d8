import type { LlmGateway } from './gateway';
import { LLM_PROVIDERS, PROVIDER_INFO } from './providers';
import type { LlmConnection, LlmProvider } from './types';

export type ProviderModels = { name: string; models: string[] };
export type ModelCatalogue = {
  /**
   * Models per provider: the provider's own list when a connection is given (cached per
   * cacheKey + provider), else or on failure the built-in list. Make cacheKey change when the
   * organization's configuration changes (e.g. include its updatedAt) so a new key shows at once.
   */
  providers(
    connections: Partial<Record<LlmProvider, LlmConnection | undefined>>,
    cacheKey: string,
  ): Promise<Record<LlmProvider, ProviderModels>>;
};

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
  const cache = new Map<string, { expiresAt: number; models: Promise<string[]> }>();

  function builtIn(provider: LlmProvider) {
    return [...PROVIDER_INFO[provider].builtInModels];
  }

  async function fromProvider(provider: LlmProvider, connection: LlmConnection) {
    try {
      const ids = await options.gateway.listModels(connection);
      const usable = provider === 'openai' ? ids.filter((id) => !NOT_CHAT.test(id)) : ids;
      if (usable.length > 0) return { ok: true, models: [...new Set(usable)].sort() };
    } catch {
      // Fall through: the form still needs something to offer.
    }
    return { ok: false, models: builtIn(provider) };
  }

  async function modelsFor(provider: LlmProvider, connection: LlmConnection | undefined, cacheKey: string) {
    if (!connection || !isConfigured(provider, connection)) return builtIn(provider);
    const key = `${cacheKey}\u0000${provider}`;
    const cached = cache.get(key);
    if (cached && cached.expiresAt > now()) return cached.models;
    pruneExpired();
    const entry = { expiresAt: now() + ttlMs, models: Promise.resolve<string[]>([]) };
    entry.models = fromProvider(provider, connection).then(({ ok, models }) => {
      if (!ok) entry.expiresAt = Math.min(entry.expiresAt, now() + failureTtlMs);
      return models;
    });
    cache.set(key, entry);
    return entry.models;
  }

  function pruneExpired() {
    const t = now();
    for (const [key, entry] of cache) if (entry.expiresAt <= t) cache.delete(key);
  }

  return {
    async providers(connections, cacheKey) {
      const lists = await Promise.all(LLM_PROVIDERS.map((p) => modelsFor(p, connections[p], cacheKey)));
      return Object.fromEntries(
        LLM_PROVIDERS.map((p, i) => [p, { name: PROVIDER_INFO[p].name, models: lists[i] }]),
      ) as Record<LlmProvider, ProviderModels>;
    },
  };
}

function isConfigured(provider: LlmProvider, connection: LlmConnection) {
  if (PROVIDER_INFO[provider].requiresApiKey && !connection.apiKey) return false;
  return Boolean(connection.baseUrl ?? PROVIDER_INFO[provider].defaultBaseUrl);
}
