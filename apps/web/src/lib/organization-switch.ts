// Moving the session to another organization of the user: the switcher in the navigation and an
// accepted invitation. The server answers with a new token for that organization; it is stored like a
// login's (so the choice survives a reload), the old organization's cached data is dropped, and the
// dashboard opens.
import type { UserOrganization } from '@crewline/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

import { queryKeys } from './queries/keys';
import { storeSession, switchOrganization } from './session';

/** GET /api/auth/organizations: every organization of the signed-in user, with their role in it. */
export function useUserOrganizations(enabled = true) {
  return useQuery<UserOrganization[]>({
    queryKey: queryKeys.userOrganizations,
    enabled,
    staleTime: 30_000,
  });
}

/** Switches to `organizationId`, stores the new session and opens /dashboard. */
export function useSwitchOrganization() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: switchOrganization,
    onSuccess: (response) => {
      // storeSession drops every cached query but the session: nothing of the old organization stays.
      storeSession(queryClient, response);
      navigate('/dashboard');
    },
  });
}
