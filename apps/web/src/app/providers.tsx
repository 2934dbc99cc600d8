import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';

import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { AUTH_TOKEN_KEY } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/queries/keys';

import { ThemeProvider } from './theme';

/**
 * Signing in or out, or switching organization, in another tab re-checks the session here too; the
 * cached data of the previous account or organization is dropped.
 */
function SessionSync() {
  const client = useQueryClient();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== AUTH_TOKEN_KEY && event.key !== null) return;
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
      void client.resetQueries({ queryKey: queryKeys.session });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [client]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider delayDuration={700} skipDelayDuration={300}>
          <SessionSync />
          {children}
          <Toaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
