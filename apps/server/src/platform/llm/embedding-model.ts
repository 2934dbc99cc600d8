import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { LlmConfigurationError } from './errors';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection } from './types';

export type EmbeddingModel = ReturnType<ReturnType<typeof createOpenAI>['embedding']>;

/**
 * The AI SDK embedding model for a connection. As for language models, the key and base URL are
 * passed explicitly so the providers never fall back to OPENAI_API_KEY / OPENAI_BASE_URL.
 */
export function createEmbeddingModel(
  connection: LlmConnection,
  model: string,
  fetch?: typeof globalThis.fetch,
): EmbeddingModel {
  if (connection.provider === 'anthropic') {
    throw new LlmConfigurationError(
      'Anthropic has no embedding models: choose an OpenAI, local or custom connection.',
    );
  }
  const info = PROVIDER_INFO[connection.provider];
  const baseURL = connection.baseUrl ?? info.defaultBaseUrl;
  if (info.requiresApiKey && !connection.apiKey) {
    throw new LlmConfigurationError(`No ${info.name} API key is configured.`);
  }
  if (!baseURL) throw new LlmConfigurationError(`No base URL is configured for ${info.name}.`);

  if (connection.provider === 'openai') {
    return createOpenAI({ apiKey: connection.apiKey, baseURL, fetch }).embedding(model);
  }
  return createOpenAICompatible({
    name: connection.provider === 'local' ? 'ollama' : 'custom',
    baseURL,
    apiKey: connection.apiKey,
    fetch,
  }).embeddingModel(model);
}
