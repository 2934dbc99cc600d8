import {
  teamMessages,
  type OrganizationSettings,
  type UpdateOrganizationSettings,
} from '@crewline/contracts';
import { maskUrl, type SecretBox } from '../../platform/crypto';
import { NotFoundError } from '../../platform/errors';
import type { OrganizationSettingsRepository, StoredSettings } from './organization-settings.repository';

/**
 * The caller's organization's settings (Settings → Organization): the trusted sender domains, whose
 * email starts trusted runs, and the URL approvals are posted to (docs/product-rules.md, People in
 * the loop). Any member reads them, the URL only as its origin; the route lets only admins and owners
 * change them.
 */
export function createOrganizationSettingsService(deps: {
  repository: OrganizationSettingsRepository;
  secrets: SecretBox;
}) {
  const { repository, secrets } = deps;
  const urlOf = (organizationId: string, settings: StoredSettings) =>
    settings.sealedNotificationUrl && secrets.decrypt(settings.sealedNotificationUrl, organizationId);
  const found = (organizationId: string, settings: StoredSettings | undefined): OrganizationSettings => {
    if (!settings) throw new NotFoundError(teamMessages.organizationNotFound);
    const url = urlOf(organizationId, settings);
    return {
      trustedSenderDomains: settings.trustedSenderDomains,
      approvalNotificationUrl: url ? maskUrl(url) : null,
    };
  };

  return {
    async get(organizationId: string): Promise<OrganizationSettings> {
      return found(organizationId, await repository.read(organizationId));
    },

    /**
     * Changes what the request names (already trimmed and checked by the contract): the domains each
     * once, the URL encrypted, or removed when null.
     */
    async update(
      organizationId: string,
      settings: UpdateOrganizationSettings,
    ): Promise<OrganizationSettings> {
      const { trustedSenderDomains: domains, approvalNotificationUrl: url } = settings;
      const changes = {
        ...(domains && { trustedSenderDomains: [...new Set(domains)] }),
        ...(url !== undefined && {
          approvalNotificationUrl: url === null ? null : secrets.encrypt(url, organizationId),
        }),
      };
      return found(organizationId, await repository.update(organizationId, changes));
    },

    /** Where the organization's approvals are posted (decrypted), for the approvals' notifications; null when nowhere. */
    async approvalNotificationUrl(organizationId: string): Promise<string | null> {
      const settings = await repository.read(organizationId);
      return (settings && urlOf(organizationId, settings)) || null;
    },
  };
}
export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
