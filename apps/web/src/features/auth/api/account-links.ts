import type { ForgotPasswordInput, ResetPasswordInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** POST /api/auth/forgot-password: the same answer whether or not an account uses the address. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) => api.call(endpoints.auth.forgotPassword, { body: input }),
  });
}

/** POST /api/auth/reset-password with the emailed token. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => api.call(endpoints.auth.resetPassword, { body: input }),
  });
}

/** POST /api/auth/verify-email; the session is read again, so the banner goes. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.call(endpoints.auth.verifyEmail, { body: { token } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.session }),
  });
}
