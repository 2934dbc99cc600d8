/*
 * The statements and conditions an email trigger's inbox poll (modules/triggers/email-monitor.repository.ts)
 * runs on microsoft_tokens: the microsoft module owns the table, so they are written here.
 */

// Raw statements on the pool (or the run's transaction), like the scheduler's claim. `updated_at` is
// not touched: a poll is not an edit of the connection. $1 organization, $2 the poll's due time as
// read, $3 the next one; RELEASE_SQL's $4 the new delta link, if any.
export const CLAIM_SQL = `update microsoft_tokens set next_poll_at = $3
  where organization_id = $1 and next_poll_at is not distinct from $2::timestamptz and broken_at is null
  returning connected_at, delta_link`;
export const RENEW_SQL = `update microsoft_tokens set next_poll_at = $3
  where organization_id = $1 and next_poll_at = $2`;
export const RELEASE_SQL = `update microsoft_tokens set next_poll_at = $3, delta_link = coalesce($4, delta_link)
  where organization_id = $1 and next_poll_at = $2`;

/**
 * The connected (not broken) inboxes whose poll is due at $1, the longest waiting first, at most $2,
 * of those for which `wanted` holds: SQL text over the token row `t` (the email monitor's: its
 * organization has an active email workflow). The reader builds it once.
 */
export const dueInboxesSql = (wanted: string) => `select t.organization_id, t.next_poll_at
  from microsoft_tokens t
  where t.broken_at is null and (t.next_poll_at is null or t.next_poll_at <= $1) and ${wanted}
  order by t.next_poll_at asc nulls first limit $2`;

/**
 * Whether the organization `organization` (SQL text) names is connected, as a condition: the email
 * monitor records a message only while it is, so a poll in flight during a disconnect starts nothing more.
 */
export const isConnected = (organization: string) =>
  `exists (select 1 from microsoft_tokens where organization_id = ${organization})`;
