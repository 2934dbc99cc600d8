import type { Member, OrganizationRole } from '@crewline/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

/** GET /api/organizations/:orgId/members (every member); organization_members_changed refreshes it. */
export function useMembers(orgId: string) {
  return useQuery<Member[]>({ queryKey: queryKeys.organizations.members(orgId), enabled: !!orgId });
}

/** PUT /api/organizations/:orgId/members/:userId { role } */
export function useChangeMemberRole(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: OrganizationRole }) =>
      apiRequest<Member>('PUT', `/api/organizations/${orgId}/members/${userId}`, { role }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.members(orgId) }),
  });
}

/** DELETE /api/organizations/:orgId/members/:userId: removes someone, or leaves (the viewer's own id). */
export function useRemoveMember(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest<null>('DELETE', `/api/organizations/${orgId}/members/${userId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.members(orgId) }),
  });
}
