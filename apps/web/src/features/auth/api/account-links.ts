import type { ForgotPasswordInput, ResetPasswordInput } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

type Answer = { message: string };

/** POST /api/auth/forgot-password: the same answer whether or not an account uses the address. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) =>
      apiRequest<Answer>('POST', '/api/auth/forgot-password', input),
  });
}

/** POST /api/auth/reset-password with the emailed token. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => apiRequest<Answer>('POST', '/api/auth/reset-password', input),
  });
}

/** POST /api/auth/verify-email; the session is read again, so the banner goes. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiRequest<Answer>('POST', '/api/auth/verify-email', { token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.session }),
  });
}

/** POST /api/auth/resend-verification (signed in): a new link to the account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => apiRequest<Answer>('POST', '/api/auth/resend-verification'),
    onSuccess: (answer) => toast({ title: answer.message }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'The email could not be sent',
        description: getErrorMessage(error, 'Try again in a moment.'),
      }),
  });
}
