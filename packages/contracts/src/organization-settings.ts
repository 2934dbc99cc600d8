import { z } from 'zod';

/*
 * The organization's settings (issue 36, People in the loop): owners and admins change them in
 * Settings → Organization; any member reads them.
 */

/** At most this many trusted sender domains. */
export const TRUSTED_SENDER_DOMAINS_MAX = 100;
/** The longest domain name DNS allows. */
const DOMAIN_MAX = 253;
// Labels of letters, digits and hyphens (not at either end, at most 63 each), at least two of them.
const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** The longest approval notification URL taken. */
const NOTIFICATION_URL_MAX = 2000;

export const organizationSettingsMessages = {
  notADomain: (entry: string) =>
    `"${entry}" is not a domain name: write it like example.com (no https://, no @, no path)`,
  tooManyDomains: `At most ${TRUSTED_SENDER_DOMAINS_MAX} trusted sender domains`,
  notAWebhookUrl: 'The notification URL must be a web address starting with https:// or http://',
} as const;

/** Whether `entry` (trimmed, lowercased) is a domain name a trusted sender list takes. */
export function isDomainName(entry: string): boolean {
  return entry.length <= DOMAIN_MAX && DOMAIN.test(entry);
}

/** One trusted sender domain: trimmed and lowercased, then checked (the 400 names the entry). */
export const trustedSenderDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isDomainName, { error: (issue) => organizationSettingsMessages.notADomain(String(issue.input)) });

/** GET and PUT /api/organization/settings. */
export const organizationSettingsSchema = z.object({
  /**
   * Email from a sender whose domain is one of these, or a subdomain of one, starts trusted runs;
   * from any other sender, runs marked untrusted (docs/product-rules.md, People in the loop).
   */
  trustedSenderDomains: z.array(z.string()),
  /**
   * Where a JSON message (`{ text }`, which Slack and Microsoft Teams incoming webhooks take) is
   * posted when an approval waits and when its reminder goes out. Such URLs carry their secret, so it
   * is stored encrypted and shown only as its origin and `/…`; null when none is set.
   */
  approvalNotificationUrl: z.string().nullable(),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** An approval notification URL: trimmed, then a URL (as WHATWG parses it) over http or https. */
const notificationUrlSchema = z
  .string()
  .trim()
  .max(NOTIFICATION_URL_MAX, { message: organizationSettingsMessages.notAWebhookUrl })
  .pipe(z.url({ protocol: /^https?$/, error: organizationSettingsMessages.notAWebhookUrl }));

/**
 * PUT /api/organization/settings: what it names changes, the rest stays. The trusted sender domains
 * as a whole list (duplicates are kept once); the notification URL as a new URL, or null to remove it.
 */
export const updateOrganizationSettingsSchema = z.object({
  trustedSenderDomains: z
    .array(trustedSenderDomainSchema)
    .max(TRUSTED_SENDER_DOMAINS_MAX, { message: organizationSettingsMessages.tooManyDomains })
    .optional(),
  approvalNotificationUrl: notificationUrlSchema.nullable().optional(),
});
export type UpdateOrganizationSettings = z.infer<typeof updateOrganizationSettingsSchema>;
