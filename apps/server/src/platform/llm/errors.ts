import type { APICallError, RetryError } from 'ai';
import { EgressError } from '../egress';
import { PROVIDER_INFO } from './providers';
import type { LlmConnection, LlmProvider } from './types';

/** The provider is not set up (no key, no base URL); the message says where to configure it. */
export class LlmConfigurationError extends Error {
  override name = 'LlmConfigurationError';
}

export type LlmCallErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'invalid-response' | 'unknown';

/** A call to a provider failed; the message is safe to show users and to store (no keys). */
export class LlmCallError extends Error {
  override name = 'LlmCallError';
  constructor(
    message: string,
    readonly provider: LlmProvider,
    readonly kind: LlmCallErrorKind,
    readonly statusCode?: number,
    readonly attempts = 1,
  ) {
    super(message);
  }
}

/** Keys must never reach logs or run records, even when a provider echoes them back. */
export function redactSecrets(text: string, apiKey: string | undefined) {
  let out = apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
  // OpenAI echoes a partly masked key ("sk-proj-****abcd"); drop those too.
  out = out.replace(/\b(sk|sk-ant|sk-proj)-[\w*.-]{6,}/g, '[redacted]');
  return out;
}

const truncate = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The AI SDK's error classes. This module does not import the SDK (gateway.ts loads it on the first
 * model call): the caller that has it passes them; errors of calls made without it (listing models
 * with fetch) are none of these.
 */
export type SdkErrors = { APICallError: typeof APICallError; RetryError: typeof RetryError };

/** Turns whatever the AI SDK (or fetch) threw into an LlmCallError with a readable message. */
export function toLlmCallError(
  error: unknown,
  connection: LlmConnection,
  context: { timedOut: boolean; timeoutMs: number },
  sdk?: SdkErrors,
): LlmCallError {
  if (error instanceof LlmCallError) return error;
  const provider = connection.provider;
  const name = PROVIDER_INFO[provider].name;
  const safe = (text: string) => truncate(redactSecrets(text, connection.apiKey));

  let attempts = 1;
  let cause = error;
  if (sdk?.RetryError.isInstance(error)) {
    attempts = error.errors.length;
    cause = error.lastError;
  }
  const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';

  // The timeout is checked first: an abort surfaces as AbortError/TimeoutError from fetch or from
  // the SDK's retry delay, and only our own signal tells which of the two it was.
  if (context.timedOut) {
    const seconds = Math.round(context.timeoutMs / 100) / 10;
    return new LlmCallError(
      `${name} did not answer within ${seconds} s`,
      provider,
      'timeout',
      undefined,
      attempts,
    );
  }
  if (isAbort(cause)) return new LlmCallError(`The call to ${name} was cancelled`, provider, 'aborted');

  // The base URL (or a redirect) aims at a destination the egress policy refuses — private and not
  // allow-listed, or this server's own ports or database: say so in the egress module's own words.
  if (cause instanceof EgressError && cause.code === 'blocked_address') {
    const where = connection.baseUrl ?? PROVIDER_INFO[provider].defaultBaseUrl ?? '';
    return new LlmCallError(`Could not reach ${name} at ${where}: ${cause.message}`, provider, 'network');
  }

  if (sdk?.APICallError.isInstance(cause)) {
    if (cause.statusCode !== undefined) {
      const detail = cause.message || cause.responseBody || 'no details';
      return new LlmCallError(
        `${name} answered ${cause.statusCode}: ${safe(detail)}${after}`,
        provider,
        'http',
        cause.statusCode,
        attempts,
      );
    }
    const where = connection.baseUrl ?? PROVIDER_INFO[provider].defaultBaseUrl ?? '';
    return new LlmCallError(
      `Could not reach ${name} at ${where}: ${safe(networkDetail(cause))}${after}`,
      provider,
      'network',
      undefined,
      attempts,
    );
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  const kind =
    cause instanceof Error && /JSON|TypeValidation|InvalidResponse/.test(cause.name)
      ? 'invalid-response'
      : 'unknown';
  const prefix =
    kind === 'invalid-response'
      ? `${name} sent a response that could not be read`
      : `The call to ${name} failed`;
  return new LlmCallError(`${prefix}: ${safe(message)}${after}`, provider, kind, undefined, attempts);
}

function isAbort(error: unknown) {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1" is clearer with the root cause's code. */
function networkDetail(error: Error) {
  const root = error.cause instanceof Error ? error.cause : undefined;
  const code = (root as { code?: string } | undefined)?.code;
  return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
