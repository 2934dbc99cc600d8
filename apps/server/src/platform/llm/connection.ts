import { LlmConfigurationError } from './errors';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection, LlmProvider } from './types';

export type ConnectionSources = {
  /** The organization's tool configuration (openai_config, anthropic_config, …). */
  organization?: { apiKey?: string; baseUrl?: string };
  /** Server-wide keys (OPENAI_API_KEY, ANTHROPIC_API_KEY), read by env.ts. */
  env?: { openai?: string; anthropic?: string };
};

const SETTINGS = 'Settings → Tools → LLM Connections';
const ENV_NAMES: Partial<Record<LlmProvider, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

const clean = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/**
 * The organization's configuration first, then the server's env key (docs/architecture.md, Agents, tools and models). The server's
 * key only ever goes to the provider's official URL: an organization that points the base URL
 * elsewhere must bring its own key, or it could collect the operator's key on its own server.
 */
export function resolveConnection(provider: LlmProvider, sources: ConnectionSources = {}): LlmConnection {
  const info = PROVIDER_INFO[provider];
  const orgKey = clean(sources.organization?.apiKey);
  const orgBaseUrl = clean(sources.organization?.baseUrl);
  const baseUrl = normalizeBaseUrl(orgBaseUrl ?? info.defaultBaseUrl, provider);

  if (provider === 'custom' && !baseUrl) {
    throw new LlmConfigurationError(
      'No base URL is configured for the custom provider. Set the base URL of your OpenAI-compatible server in Settings → Tools.',
    );
  }
  if (!info.requiresApiKey) return { provider, baseUrl, ...(orgKey ? { apiKey: orgKey } : {}) };

  const envName = ENV_NAMES[provider]!;
  const envKey =
    provider === 'openai' || provider === 'anthropic' ? clean(sources.env?.[provider]) : undefined;
  const usesOfficialUrl = baseUrl === info.defaultBaseUrl;
  const apiKey = orgKey ?? (usesOfficialUrl ? envKey : undefined);
  if (!apiKey) {
    throw new LlmConfigurationError(
      usesOfficialUrl
        ? `No ${info.name} API key is configured. Add one in ${SETTINGS}, or set ${envName} on the server.`
        : `No ${info.name} API key is configured for ${baseUrl}. Add one in ${SETTINGS}.`,
    );
  }
  return { provider, apiKey, baseUrl, ...(orgKey ? {} : { serverKey: true as const }) };
}

/**
 * A usable http(s) base URL without a trailing slash (the SDK appends `/chat/completions`). It may
 * carry no query, fragment or user name: the SDK appends its paths to the string, so
 * `http://ollama:11434/api/pull?x=` would send the model's requests to `/api/pull` (docs/security.md,
 * Outbound traffic: a model entry opens a server's model paths, not its administration).
 */
function normalizeBaseUrl(value: string | undefined, provider: LlmProvider): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LlmConfigurationError(
      `The ${PROVIDER_INFO[provider].name} base URL "${value}" is not a valid URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LlmConfigurationError(
      `The ${PROVIDER_INFO[provider].name} base URL must start with http:// or https://.`,
    );
  }
  if (url.search || url.hash || value.includes('#') || value.includes('?') || url.username || url.password) {
    throw new LlmConfigurationError(
      `The ${PROVIDER_INFO[provider].name} base URL must be a plain address and path, without ?, # or a user name.`,
    );
  }
  return url.toString().replace(/\/+$/, '');
}
