import {
  teamMessages,
  type OrganizationSettings,
  type UpdateOrganizationSettings,
} from '@crewline/contracts';
import { NotFoundError } from '../../platform/errors';
import type { OrganizationSettingsRepository } from './organization-settings.repository';

/**
 * The caller's organization's settings (Settings → Organization): the trusted sender domains, whose
 * email starts trusted runs (docs/product-rules.md, People in the loop). Any member reads them; the
 * route lets only admins and owners change them.
 */
export function createOrganizationSettingsService(deps: { repository: OrganizationSettingsRepository }) {
  const { repository } = deps;
  const found = (domains: string[] | undefined): OrganizationSettings => {
    if (!domains) throw new NotFoundError(teamMessages.organizationNotFound);
    return { trustedSenderDomains: domains };
  };

  return {
    async get(organizationId: string): Promise<OrganizationSettings> {
      return found(await repository.trustedSenderDomains(organizationId));
    },

    /** Replaces the list (already trimmed, lowercased and checked by the contract), each domain once. */
    async update(
      organizationId: string,
      settings: UpdateOrganizationSettings,
    ): Promise<OrganizationSettings> {
      const domains = [...new Set(settings.trustedSenderDomains)];
      return found(await repository.setTrustedSenderDomains(organizationId, domains));
    },
  };
}
export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
