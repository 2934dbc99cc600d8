import { sql } from 'drizzle-orm';

/*
 * Statements auth offers over an organization's settings (`organizations.settings`, a JSON object,
 * which it owns): the team module reads and changes them for Settings → Organization, and the email
 * trigger reads the trusted sender domains before it starts runs, and approvals read where to post their
 * notifications. Each takes its values as parameters.
 */

/** The stored list, `[]` when never set (or not a list). */
const TRUSTED_SENDER_DOMAINS = `case when jsonb_typeof(settings -> 'trustedSenderDomains') = 'array'
  then settings -> 'trustedSenderDomains' else '[]'::jsonb end`;

/** The approval notification URL, encrypted (platform/crypto); null when none. */
const APPROVAL_NOTIFICATION_URL = `settings ->> 'approvalNotificationUrl'`;

const SETTINGS = `${TRUSTED_SENDER_DOMAINS} as trusted_sender_domains,
  ${APPROVAL_NOTIFICATION_URL} as approval_notification_url`;

/** The columns the two statements below answer, in one row; no row when there is no such organization. */
export type OrganizationSettingsRow = {
  trusted_sender_domains: string[];
  approval_notification_url: string | null;
};

/** The organization's settings (`OrganizationSettingsRow`). */
export const organizationSettingsSql = (organizationId: string) =>
  sql`select ${sql.raw(SETTINGS)} from organizations where id = ${organizationId}`;

/**
 * Changes the settings `changes` names (the others stay; a null URL removes it) and returns them all,
 * as `organizationSettingsSql` does. The URL comes encrypted.
 */
export const updateOrganizationSettingsSql = (
  organizationId: string,
  changes: { trustedSenderDomains?: string[]; approvalNotificationUrl?: string | null },
) =>
  sql`update organizations
    set settings = settings || ${JSON.stringify(changes)}::jsonb, updated_at = now()
    where id = ${organizationId}
    returning ${sql.raw(SETTINGS)}`;

/** The trusted sender domains of the organization `$1`, as `domains` (plain SQL text, for pg's query). */
export const TRUSTED_SENDER_DOMAINS_SQL = `select ${TRUSTED_SENDER_DOMAINS} as domains
  from organizations where id = $1`;
