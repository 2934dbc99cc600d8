import type { InvitationPreview } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { switchOrganization } from '@/lib/session';
import { queryKeys } from '@/lib/queries/keys';
import { storeSession } from '@/lib/session';

/** GET /api/invitations/:token (public): who invites to which organization, as what. */
export function useInvitationPreview(token: string) {
  return useQuery<InvitationPreview>({
    queryKey: queryKeys.invitations.preview(token),
    enabled: !!token,
    staleTime: 60_000,
  });
}

/**
 * POST /api/invitations/:token/accept, then moves the session to the organization joined (a new
 * token, stored like a login's, the cache of the previous organization dropped) and opens its
 * dashboard.
 */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      const accepted = await api.call(endpoints.organizations.acceptInvitation, { params: { token } });
      return switchOrganization(accepted.organization.id);
    },
    onSuccess: (response) => {
      storeSession(queryClient, response);
      navigate('/dashboard', { replace: true });
    },
  });
}

/** POST /api/auth/resend-verification: accepting needs the invited address verified. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.call(endpoints.auth.resendVerification),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'The email could not be sent',
        description: getErrorMessage(error, 'Try again in a moment.'),
      }),
  });
}
