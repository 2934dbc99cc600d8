import type { AuthResponse, signupSchema } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { afterAuthPath } from '@/lib/invite-links';
import { storeSession } from '@/lib/session';

export const SIGNUP_FAILED_FALLBACK = 'Failed to create account';

export type SignupBody = z.output<typeof signupSchema>;

function signup(input: SignupBody): Promise<AuthResponse> {
  return api.call(endpoints.auth.signup, { body: input });
}

/**
 * POST /api/auth/signup; on success stores the session, welcomes the user and opens the dashboard (or
 * the invitation named by `?invite=`).
 */
export function useSignup() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();

  return useMutation({
    mutationFn: signup,
    onSuccess: (response) => {
      storeSession(queryClient, response);
      toast({ title: 'Welcome to Crewline!', description: 'Your account has been created successfully.' });
      // Back to the invitation that sent the user here, else the dashboard.
      navigate(afterAuthPath(searchParams), { replace: true });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Signup Failed',
        description: getErrorMessage(error, SIGNUP_FAILED_FALLBACK),
      });
    },
  });
}
