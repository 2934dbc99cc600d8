import type { Db } from '@crewline/db';
import { organizationSettingsSql, setTrustedSenderDomainsSql } from '../auth/organization-settings.columns';

type SettingsRow = { trusted_sender_domains: string[] };

/** An organization's settings, through the statements auth offers over `organizations.settings`. */
export function createOrganizationSettingsRepository(db: Db) {
  return {
    /** The organization's trusted sender domains; undefined when there is no such organization. */
    async trustedSenderDomains(organizationId: string): Promise<string[] | undefined> {
      const { rows } = await db.execute<SettingsRow>(organizationSettingsSql(organizationId));
      return rows[0]?.trusted_sender_domains;
    },

    /** Replaces them; the stored list, undefined when there is no such organization. */
    async setTrustedSenderDomains(organizationId: string, domains: string[]): Promise<string[] | undefined> {
      const { rows } = await db.execute<SettingsRow>(setTrustedSenderDomainsSql(organizationId, domains));
      return rows[0]?.trusted_sender_domains;
    },
  };
}
export type OrganizationSettingsRepository = ReturnType<typeof createOrganizationSettingsRepository>;
