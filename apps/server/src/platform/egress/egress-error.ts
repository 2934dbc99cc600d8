/**
 * Why an outbound request failed, so callers can map it to a user message:
 * - `blocked_address`: the destination (or a redirect hop) is private, loopback, link-local, metadata…
 *   and not allow-listed for its port, or one of the product's own ports or its database
 * - `bad_url`: the request itself is unusable — not a URL, not http(s), credentials in the URL, bad header
 * - `timeout`: the overall time limit passed (DNS, connect, response and body together)
 * - `too_large`: the response body is larger than the limit
 * - `too_many_redirects`: more redirects than the limit
 * - `network`: DNS failure, refused/reset connection, TLS failure, malformed response
 */
export type EgressErrorCode =
  'blocked_address' | 'bad_url' | 'timeout' | 'too_large' | 'too_many_redirects' | 'network';

/**
 * What every refused destination reports (EgressError `blocked_address`, the database tool): the same
 * words whatever the reason, so a tenant learns nothing about what is there or whether it listens.
 */
export const DESTINATION_NOT_ALLOWED = 'Destination not allowed';

/** Messages name the host and the reason, never header values or bodies: they may reach tenants. */
export class EgressError extends Error {
  override readonly name = 'EgressError';

  constructor(
    readonly code: EgressErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
