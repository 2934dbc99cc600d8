import { LlmCallError } from './errors';
import { PROVIDER_INFO } from './providers';
import { requestProviderJson } from './provider-request';
import type { LlmConnection } from './types';

/**
 * Model ids from the provider: `GET {baseUrl}/models` (OpenAI-compatible, Ollama included) or
 * Anthropic's `GET /v1/models` (x-api-key + anthropic-version; up to 1000 per page, one page read).
 */
export async function fetchModelIds(
  connection: LlmConnection,
  options: { fetch: typeof globalThis.fetch; signal: AbortSignal },
): Promise<string[]> {
  const anthropic = connection.provider === 'anthropic';
  const body = await requestProviderJson(connection, `/models${anthropic ? '?limit=1000' : ''}`, options);
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) {
    throw new LlmCallError(
      `${PROVIDER_INFO[connection.provider].name} sent a model list that could not be read`,
      connection.provider,
      'invalid-response',
    );
  }
  return data
    .map((entry: { id?: unknown }) => entry?.id)
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
}
