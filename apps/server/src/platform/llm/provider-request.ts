import { LlmCallError, LlmConfigurationError, redactSecrets } from './errors';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection } from './types';

const ANTHROPIC_VERSION = '2023-06-01';

/**
 * One JSON request to a provider's API outside the AI SDK (listing models, OpenAI's moderation
 * endpoint): `{baseUrl}{path}` with the connection's key as the provider wants it, the body parsed
 * as JSON. A connection without its key or base URL is an LlmConfigurationError; a network failure or
 * a refusal an LlmCallError in the provider's words, the key never quoted. Aborts are the caller's
 * to name (timeout or cancel), so they are thrown as they came.
 */
export async function requestProviderJson(
  connection: LlmConnection,
  path: string,
  options: { fetch: typeof globalThis.fetch; signal: AbortSignal; body?: unknown },
): Promise<unknown> {
  const info = PROVIDER_INFO[connection.provider];
  const baseUrl = connection.baseUrl ?? info.defaultBaseUrl;
  if (!baseUrl) throw new LlmConfigurationError(`No base URL is configured for ${info.name}.`);
  if (info.requiresApiKey && !connection.apiKey)
    throw new LlmConfigurationError(`No ${info.name} API key is configured.`);

  const headers: Record<string, string> = { accept: 'application/json' };
  if (connection.provider === 'anthropic') {
    headers['x-api-key'] = connection.apiKey!;
    headers['anthropic-version'] = ANTHROPIC_VERSION;
  } else if (connection.apiKey) {
    headers.authorization = `Bearer ${connection.apiKey}`;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await options.fetch(`${baseUrl}${path}`, {
      method: options.body === undefined ? 'GET' : 'POST',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
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
  return body;
}
