// Renders a component as the app's shell does, for the component tests: a fresh query client (no
// retries), a realtime hub the test emits events through, and a router in memory.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { ThemeProvider } from '@/app/theme';
import { TooltipProvider } from '@/components/ui/tooltip';
import { getByQueryKey } from '@/lib/queries/query-fn';
import { RealtimeHubContext } from '@/lib/realtime';
import { createRealtimeHub } from '@/lib/realtime-hub';

/** `path` is the route the element answers (its params), `url` the address the page opens at. */
export function renderWithApp(
  ui: ReactElement,
  { path = '*', url = '/' }: { path?: string; url?: string } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: {
      // The app's query function (lib/query-client.ts): a key's object part is the query string.
      queries: { queryFn: getByQueryKey, retry: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
  const hub = createRealtimeHub();
  hub.setStatus('open');
  // A data router, as the app's: the builder blocks leaving with unsaved changes (useBlocker).
  // Other addresses (where a page navigates to) render nothing; the test reads `router.state.location`.
  const router = createMemoryRouter(
    [
      { path, element: ui },
      { path: '*', element: null },
    ],
    { initialEntries: [url] },
  );
  const result = render(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <RealtimeHubContext value={hub}>
          <TooltipProvider>
            <RouterProvider router={router} />
          </TooltipProvider>
        </RealtimeHubContext>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return { ...result, hub, queryClient, router };
}
