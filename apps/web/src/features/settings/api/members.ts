import type { Member, OrganizationRole } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
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
      api.call(endpoints.organizations.changeRole, { params: { orgId, userId }, body: { role } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.members(orgId) }),
  });
}

/** DELETE /api/organizations/:orgId/members/:userId: removes someone, or leaves (the viewer's own id). */
export function useRemoveMember(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api.call(endpoints.organizations.removeMember, { params: { orgId, userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.members(orgId) }),
  });
}
