import type { LlmProvider } from './types';

export const LLM_PROVIDERS = [
  'openai',
  'anthropic',
  'local',
  'custom',
] as const satisfies readonly LlmProvider[];

export type ProviderInfo = {
  name: string;
  /** Used when the organization sets no base URL; custom servers have none. */
  defaultBaseUrl: string | undefined;
  requiresApiKey: boolean;
  /** Shown when the provider's own list is unavailable (no key configured, or listing failed). */
  builtInModels: readonly string[];
};

export const PROVIDER_INFO: Record<LlmProvider, ProviderInfo> = {
  openai: {
    name: 'OpenAI',
    defaultBaseUrl: 'https://api.openai.com/v1',
    requiresApiKey: true,
    builtInModels: ['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo'],
  },
  anthropic: {
    name: 'Anthropic',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    requiresApiKey: true,
    // Current ids accepted by the Messages API (claude-3-5-haiku is retired; haiku 4.5 replaces it).
    builtInModels: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  },
  local: {
    name: 'Local (Ollama)',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    requiresApiKey: false,
    builtInModels: ['llama3.1:8b', 'mistral', 'qwen2.5'],
  },
  custom: {
    name: 'Custom (OpenAI-compatible)',
    defaultBaseUrl: undefined,
    requiresApiKey: false,
    builtInModels: [],
  },
};

export function isLlmProvider(value: unknown): value is LlmProvider {
  return typeof value === 'string' && (LLM_PROVIDERS as readonly string[]).includes(value);
}
