import type { Session } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { USER_DATA_KEY } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/**
 * PUT /api/organizations/:orgId { name } (admins and owners). The answer goes straight into the
 * session (the navigation's organization name, this tab) and the stored user data.
 */
export function useRenameOrganization(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api.call(endpoints.organizations.rename, { params: { orgId }, body: { name } }),
    onSuccess: (organization) => {
      const session = queryClient.getQueryData<Session | null>(queryKeys.session);
      if (session && session.organization.id === organization.id) {
        const next: Session = { ...session, organization: { ...session.organization, ...organization } };
        queryClient.setQueryData<Session | null>(queryKeys.session, next);
        try {
          localStorage.setItem(USER_DATA_KEY, JSON.stringify(next));
        } catch {
          // storage full or disabled: the session query holds the data
        }
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.userOrganizations });
    },
  });
}
