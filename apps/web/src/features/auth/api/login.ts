import type { AuthResponse, LoginInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { afterAuthPath } from '@/lib/invite-links';
import { storeSession } from '@/lib/session';

export const LOGIN_FAILED_FALLBACK = 'Failed to login';

function login(input: LoginInput): Promise<AuthResponse> {
  return api.call(endpoints.auth.login, { body: input });
}

/**
 * POST /api/auth/login; on success stores the session, greets the user and opens the dashboard (or
 * the invitation named by `?invite=`).
 */
export function useLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();

  return useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      storeSession(queryClient, response);
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
      // Back to the invitation that sent the user here, else the dashboard.
      navigate(afterAuthPath(searchParams), { replace: true });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Login Failed',
        description: getErrorMessage(error, LOGIN_FAILED_FALLBACK),
      });
    },
  });
}
