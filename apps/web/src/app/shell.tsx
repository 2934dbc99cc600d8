import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';

import { FullPageSpinner } from '@/components/spinner';
import { RealtimeProvider } from '@/lib/realtime';

import { isNavVisible } from './nav';
import { TopNav } from './top-nav';

/**
 * Signed-in frame: the top navigation (on the app areas only) above the routed page, with the
 * organization's live connection (realtime events) open for as long as the user is signed in.
 */
export function AppShell() {
  const { pathname } = useLocation();

  return (
    <RealtimeProvider>
      <div className="flex min-h-svh flex-col bg-muted/30 dark:bg-background">
        {isNavVisible(pathname) && <TopNav />}
        <main id="main" className="flex flex-1 flex-col">
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </RealtimeProvider>
  );
}
