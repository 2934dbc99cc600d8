import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';

import type { Toaster as ToasterComponent } from '@/components/ui/toaster';
import { useToast } from '@/components/ui/use-toast';
import { AUTH_TOKEN_KEY } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/queries/keys';

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

/**
 * The toasts' region (Radix Toast) is not needed to show a page: it loads once the browser is idle
 * after the first render, or as soon as a toast is raised; a toast raised earlier waits in the store.
 * It is loaded by hand rather than with lazy(): a Suspense fallback shown while the page's own chunk
 * still loads would hold back React's reveal of the page (its fallback throttling).
 */
function DeferredToaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = useState(false);
  const [Toaster, setToaster] = useState<typeof ToasterComponent | null>(null);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(() => setIdle(true), 1000);
    return () => window.clearTimeout(handle);
  }, []);
  const wanted = idle || toasts.length > 0;
  useEffect(() => {
    if (!wanted || Toaster) return;
    let cancelled = false;
    void import('@/components/ui/toaster').then(
      (module) => {
        if (!cancelled) setToaster(() => module.Toaster);
      },
      // A failed download (offline, a deploy replaced the chunk) is tried again with the next toast.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [wanted, Toaster, toasts]);
  return Toaster ? <Toaster /> : null;
}

/**
 * What every screen needs around it (app-routes.tsx) but the landing page of a visit that starts
 * signed out: the query client, the session sync between tabs and the toasts. The theme is the
 * entry's (main.tsx).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionSync />
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
