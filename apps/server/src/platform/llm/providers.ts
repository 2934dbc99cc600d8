import { builtInModels, llmProviderNames, llmProviderValues } from '@crewline/contracts';

import type { LlmProvider } from './types';

export { isLlmProvider } from '@crewline/contracts';

export const LLM_PROVIDERS = llmProviderValues;

export type ProviderInfo = {
  name: string;
  /** Used when the organization sets no base URL; custom servers have none. */
  defaultBaseUrl: string | undefined;
  requiresApiKey: boolean;
  /** Shown when the provider's own list is unavailable (no key configured, or listing failed). */
  builtInModels: readonly string[];
};

/** Names and built-in models are the vocabulary's; how to reach each provider is the gateway's. */
export const PROVIDER_INFO: Record<LlmProvider, ProviderInfo> = {
  openai: {
    name: llmProviderNames.openai,
    defaultBaseUrl: 'https://api.openai.com/v1',
    requiresApiKey: true,
    builtInModels: builtInModels.openai,
  },
  anthropic: {
    name: llmProviderNames.anthropic,
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    requiresApiKey: true,
    builtInModels: builtInModels.anthropic,
  },
  local: {
    name: llmProviderNames.local,
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    requiresApiKey: false,
    builtInModels: builtInModels.local,
  },
  custom: {
    name: llmProviderNames.custom,
    defaultBaseUrl: undefined,
    requiresApiKey: false,
    builtInModels: builtInModels.custom,
  },
};
