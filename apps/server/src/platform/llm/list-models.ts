import { LlmCallError, LlmConfigurationError, redactSecrets } from './errors';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection } from './types';

const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Model ids from the provider: `GET {baseUrl}/models` (OpenAI-compatible, Ollama included) or
 * Anthropic's `GET /v1/models` (x-api-key + anthropic-version; up to 1000 per page, one page read).
 */
export async function fetchModelIds(
  connection: LlmConnection,
  options: { fetch: typeof globalThis.fetch; signal: AbortSignal },
): Promise<string[]> {
  const info = PROVIDER_INFO[connection.provider];
  const baseUrl = connection.baseUrl ?? info.defaultBaseUrl;
  if (!baseUrl) throw new LlmConfigurationError(`No base URL is configured for ${info.name}.`);
  if (info.requiresApiKey && !connection.apiKey)
    throw new LlmConfigurationError(`No ${info.name} API key is configured.`);

  const anthropic = connection.provider === 'anthropic';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (anthropic) {
    headers['x-api-key'] = connection.apiKey!;
    headers['anthropic-version'] = ANTHROPIC_VERSION;
  } else if (connection.apiKey) {
    headers.authorization = `Bearer ${connection.apiKey}`;
  }

  const url = `${baseUrl}/models${anthropic ? '?limit=1000' : ''}`;
  let response: Response;
  try {
    response = await options.fetch(url, { headers, signal: options.signal });
  } catch (error) {
    // Aborts are the caller's to name (timeout or cancel).
    if (options.signal.aborted) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new LlmCallError(
      `Could not reach ${info.name} at ${baseUrl}: ${detail}`,
      connection.provider,
      'network',
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const message =
      (body as { error?: { message?: string } } | undefined)?.error?.message ?? text.slice(0, 300);
    throw new LlmCallError(
      `${info.name} answered ${response.status}: ${redactSecrets(message || response.statusText, connection.apiKey)}`,
      connection.provider,
      'http',
      response.status,
    );
  }
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) {
    throw new LlmCallError(
      `${info.name} sent a model list that could not be read`,
      connection.provider,
      'invalid-response',
    );
  }
  return data
    .map((entry: { id?: unknown }) => entry?.id)
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
}
