import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { LlmConfigurationError } from './errors';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection } from './types';

/**
 * The AI SDK model for a connection. Keys and base URLs are always passed explicitly: the providers
 * otherwise fall back to OPENAI_API_KEY / OPENAI_BASE_URL / ANTHROPIC_BASE_URL from process.env,
 * which would bypass the organization-first resolution (and env.ts).
 */
export function createLanguageModel(
  connection: LlmConnection,
  model: string,
  fetch?: typeof globalThis.fetch,
): LanguageModel {
  const info = PROVIDER_INFO[connection.provider];
  const baseURL = connection.baseUrl ?? info.defaultBaseUrl;
  if (info.requiresApiKey && !connection.apiKey) {
    throw new LlmConfigurationError(`No ${info.name} API key is configured.`);
  }
  if (!baseURL) throw new LlmConfigurationError(`No base URL is configured for ${info.name}.`);

  switch (connection.provider) {
    case 'openai':
      // .chat(): Chat Completions, which every OpenAI-compatible server speaks; the default
      // provider call would use the Responses API.
      return createOpenAI({ apiKey: connection.apiKey, baseURL, fetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey: connection.apiKey, baseURL, fetch })(model);
    case 'local':
    case 'custom':
      return createOpenAICompatible({
        name: connection.provider === 'local' ? 'ollama' : 'custom',
        baseURL,
        apiKey: connection.apiKey,
        fetch,
        includeUsage: true,
        // An output schema goes as `response_format: json_schema` (Ollama, vLLM, LM Studio and
        // llama.cpp's server take it); otherwise the server would be asked for any JSON object.
        supportsStructuredOutputs: true,
      })(model);
  }
}
