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

export const organizationSettingsMessages = {
  notADomain: (entry: string) =>
    `"${entry}" is not a domain name: write it like example.com (no https://, no @, no path)`,
  tooManyDomains: `At most ${TRUSTED_SENDER_DOMAINS_MAX} trusted sender domains`,
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
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** PUT /api/organization/settings: the whole list (duplicates are kept once). */
export const updateOrganizationSettingsSchema = z.object({
  trustedSenderDomains: z
    .array(trustedSenderDomainSchema)
    .max(TRUSTED_SENDER_DOMAINS_MAX, { message: organizationSettingsMessages.tooManyDomains }),
});
export type UpdateOrganizationSettings = z.infer<typeof updateOrganizationSettingsSchema>;
