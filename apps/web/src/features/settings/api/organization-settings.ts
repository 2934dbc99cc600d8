import type { OrganizationSettings, UpdateOrganizationSettings } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** GET /api/organization/settings (every member). */
export function useOrganizationSettings() {
  return useQuery<OrganizationSettings>({ queryKey: queryKeys.organizationSettings });
}

/**
 * PUT /api/organization/settings (admins and owners): what it names changes; the answer, tidied by the
 * server, replaces the cached settings.
 */
export function useUpdateOrganizationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdateOrganizationSettings) =>
      api.call(endpoints.organizationSettings.update, { body: settings }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.organizationSettings, settings),
  });
}
