import type { Db } from '@crewline/db';
import {
  organizationSettingsSql,
  updateOrganizationSettingsSql,
  type OrganizationSettingsRow,
} from '../auth/organization-settings.columns';

/** What is stored: the URL encrypted (platform/crypto), as the organization's secrets are. */
export type StoredSettings = { trustedSenderDomains: string[]; sealedNotificationUrl: string | null };

const stored = (row: OrganizationSettingsRow | undefined): StoredSettings | undefined =>
  row && {
    trustedSenderDomains: row.trusted_sender_domains,
    sealedNotificationUrl: row.approval_notification_url,
  };

/** An organization's settings, through the statements auth offers over `organizations.settings`. */
export function createOrganizationSettingsRepository(db: Db) {
  return {
    /** The organization's settings; undefined when there is no such organization. */
    async read(organizationId: string): Promise<StoredSettings | undefined> {
      const { rows } = await db.execute<OrganizationSettingsRow>(organizationSettingsSql(organizationId));
      return stored(rows[0]);
    },

    /** Changes those named (a null URL removes it); all of them after, undefined when there is no such organization. */
    async update(
      organizationId: string,
      changes: { trustedSenderDomains?: string[]; approvalNotificationUrl?: string | null },
    ): Promise<StoredSettings | undefined> {
      const { rows } = await db.execute<OrganizationSettingsRow>(
        updateOrganizationSettingsSql(organizationId, changes),
      );
      return stored(rows[0]);
    },
  };
}
export type OrganizationSettingsRepository = ReturnType<typeof createOrganizationSettingsRepository>;
