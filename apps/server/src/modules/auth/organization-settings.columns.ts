import { sql } from 'drizzle-orm';

/*
 * Statements auth offers over an organization's settings (`organizations.settings`, a JSON object,
 * which it owns): the team module reads and changes them for Settings → Organization, and the email
 * trigger reads the trusted sender domains before it starts runs. Each takes its values as parameters.
 */

/** The stored list, `[]` when never set (or not a list). */
const TRUSTED_SENDER_DOMAINS = `case when jsonb_typeof(settings -> 'trustedSenderDomains') = 'array'
  then settings -> 'trustedSenderDomains' else '[]'::jsonb end`;

/** The organization's `trusted_sender_domains` (a JSON list of strings); no row when there is none. */
export const organizationSettingsSql = (organizationId: string) =>
  sql`select ${sql.raw(TRUSTED_SENDER_DOMAINS)} as trusted_sender_domains
    from organizations where id = ${organizationId}`;

/**
 * Replaces the trusted sender domains (the other settings stay); returns the new
 * `trusted_sender_domains`, no row when there is no such organization.
 */
export const setTrustedSenderDomainsSql = (organizationId: string, domains: string[]) =>
  sql`update organizations
    set settings = settings || jsonb_build_object('trustedSenderDomains', ${JSON.stringify(domains)}::jsonb),
      updated_at = now()
    where id = ${organizationId}
    returning ${sql.raw(TRUSTED_SENDER_DOMAINS)} as trusted_sender_domains`;

/** The trusted sender domains of the organization `$1`, as `domains` (plain SQL text, for pg's query). */
export const TRUSTED_SENDER_DOMAINS_SQL = `select ${TRUSTED_SENDER_DOMAINS} as domains
  from organizations where id = $1`;
