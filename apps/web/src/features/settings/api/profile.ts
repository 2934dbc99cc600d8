import type { ChangePasswordInput, Session, UpdateProfileInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { USER_DATA_KEY } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/**
 * PUT /api/auth/me: the answer is the session, put straight into the session query (the navigation's
 * avatar and name, this tab) and the stored user data.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileInput) => api.call(endpoints.auth.updateProfile, { body }),
    onSuccess: (session) => {
      queryClient.setQueryData<Session | null>(queryKeys.session, session);
      try {
        localStorage.setItem(USER_DATA_KEY, JSON.stringify(session));
      } catch {
        // storage full or disabled: the session query holds the data
      }
    },
  });
}

/** POST /api/auth/change-password (204): this session stays signed in, every other one is ended. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordInput) => api.call(endpoints.auth.changePassword, { body }),
  });
}
