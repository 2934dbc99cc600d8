import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';

import { clearStoredAuth } from '@/lib/api';
import { revokeSessionToken } from '@/lib/session';

/**
 * Log out: POST /api/auth/logout (revokes the token server side; a failure is ignored), forget
 * authToken and userData, drop every cached query, go to /login.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isPending, setIsPending] = useState(false);

  const logout = useCallback(async () => {
    setIsPending(true);
    // Already signed out server side, or offline: the local sign-out below still happens.
    await revokeSessionToken();
    setIsPending(false);
    // Same tick: the app re-renders once, signed out, at /login; only then is the cache dropped,
    // so no mounted screen refetches its data without a token.
    clearStoredAuth();
    navigate('/login', { replace: true });
    queryClient.clear();
  }, [navigate, queryClient]);

  return { logout, isPending };
}
