/*
 * The statements an email trigger's inbox poll (modules/triggers/email-monitor.repository.ts) runs on
 * microsoft_tokens: the microsoft module owns the table, so they are written here. $1 organization,
 * $2 the poll's due time as read, $3 the next one; RELEASE_SQL's $4 the new delta link, if any.
 */

// Raw statements on the pool (or the run's transaction), like the scheduler's claim. `updated_at` is
// not touched: a poll is not an edit of the connection.
export const CLAIM_SQL = `update microsoft_tokens set next_poll_at = $3
  where organization_id = $1 and next_poll_at is not distinct from $2::timestamptz and broken_at is null
  returning connected_at, delta_link`;
export const RENEW_SQL = `update microsoft_tokens set next_poll_at = $3
  where organization_id = $1 and next_poll_at = $2`;
export const RELEASE_SQL = `update microsoft_tokens set next_poll_at = $3, delta_link = coalesce($4, delta_link)
  where organization_id = $1 and next_poll_at = $2`;
