import type { OrganizationsRepository } from './organizations.repository';

export const ACTIVITY_LIMIT = 5;

export function createOrganizationsService(repository: OrganizationsRepository) {
  return {
    stats: (organizationId: string) => repository.stats(organizationId),
    activity: async (organizationId: string) => ({
      items: await repository.recentActivity(organizationId, ACTIVITY_LIMIT),
    }),
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
