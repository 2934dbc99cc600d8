// The model providers an agent can use, how they are named, the models offered when a provider's
// own list is unavailable, and the models a new agent or an AI tool starts with.

export const llmProviderValues = ['openai', 'anthropic', 'local', 'custom'] as const;
export type LlmProvider = (typeof llmProviderValues)[number];

/** The names of the model catalogue (GET /api/llm/providers), the agent form's provider choices. */
export const llmProviderNames: Record<LlmProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  local: 'Local (Ollama)',
  custom: 'Custom (OpenAI-compatible)',
};

/** The short names of badges, cards and filters. */
export const llmProviderLabels: Record<LlmProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  local: 'Local',
  custom: 'Custom',
};

/**
 * Shown when the provider's own list is unavailable (no key configured, or listing failed). Local and
 * custom ones are only suggestions: which models such a server serves is known once it has said so.
 */
export const builtInModels: Record<LlmProvider, readonly string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo'],
  // Current ids accepted by the Messages API (claude-3-5-haiku is retired; haiku 4.5 replaces it).
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  local: ['llama3.1:8b', 'mistral', 'qwen2.5'],
  custom: [],
};

/** The providers whose models only their own server knows (the agent form takes any name for them). */
export const serverListedProviders: readonly LlmProvider[] = ['local', 'custom'];

/**
 * The model a new agent of a provider starts with when its connection names none: OpenAI's and
 * Anthropic's first built-in model; '' for a local or custom server, whose models only it knows.
 */
export const builtInDefaultModel = (provider: LlmProvider): string =>
  serverListedProviders.includes(provider) ? '' : (builtInModels[provider][0] ?? '');

/** A new agent's provider and model (also the agents table's column defaults). */
export const DEFAULT_LLM_PROVIDER: LlmProvider = 'openai';
export const DEFAULT_LLM_MODEL = 'gpt-4o';

/** The model an AI Services tool asks when its settings name none. */
export const DEFAULT_AI_TOOL_MODEL = 'gpt-4o-mini';

export function isLlmProvider(value: unknown): value is LlmProvider {
  return typeof value === 'string' && (llmProviderValues as readonly string[]).includes(value);
}
