import type { CreateInvitationInput, Invitation } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** GET /api/organizations/:orgId/invitations: the pending ones (admins and owners only). */
export function useInvitations(orgId: string, enabled: boolean) {
  return useQuery<Invitation[]>({
    queryKey: queryKeys.organizations.invitations(orgId),
    enabled: enabled && !!orgId,
  });
}

/** POST /api/organizations/:orgId/invitations: the answer holds the link, shown only this once. */
export function useCreateInvitation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationInput) =>
      api.call(endpoints.organizations.invite, { params: { orgId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.invitations(orgId) }),
  });
}

/** DELETE /api/organizations/:orgId/invitations/:id */
export function useRevokeInvitation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.organizations.revokeInvitation, { params: { orgId, id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.invitations(orgId) }),
  });
}

/**
 * POST /api/organizations/:orgId/invitations/:id/verification-link (no mail transport): a fresh link
 * for the invitee's address, which the admin passes on. Refusals show as a toast with the server's message.
 */
export function useVerificationLink(orgId: string, invitationId: string) {
  return useMutation({
    mutationFn: () =>
      api.call(endpoints.organizations.verificationLink, { params: { orgId, id: invitationId } }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'No verification link',
        description: getErrorMessage(error, 'Try again.'),
      }),
  });
}
