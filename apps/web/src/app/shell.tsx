import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';

import { FullPageSpinner } from '@/components/full-page-spinner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { RealtimeProvider } from '@/lib/realtime';
import { takeDashboardRedirect, useAuth } from '@/lib/session';

import { isNavVisible } from './nav';
import { TopNav } from './top-nav';

/**
 * The banners above the page (page-banners.tsx) once it has painted: the dashboard's first JavaScript
 * has no room for them, and loaded by hand rather than with lazy() for the reason providers.tsx gives.
 */
function DeferredBanners({ budget }: { budget: boolean }) {
  const [Banners, setBanners] = useState<ComponentType<{ budget: boolean }> | null>(null);
  useEffect(() => {
    void import('./page-banners').then(
      (module) => setBanners(() => module.PageBanners),
      // A failed download (offline, a deploy replaced the chunk): no banners until the next visit.
      () => undefined,
    );
  }, []);
  return Banners ? <Banners budget={budget} /> : null;
}

/**
 * Signed-in frame: the top navigation (on the app areas only) above the routed page, with the
 * organization's live connection (realtime events) open for as long as the user is signed in. The
 * pages are keyed by the organization, so switching remounts them with the new one's data. Every
 * tooltip is in here, and so is the tooltip provider: Radix Tooltip stays out of the signed-out pages.
 */
export function AppShell() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const organizationId = useAuth().organization?.id ?? null;

  // The session moved to another organization on its own (the membership ended): its dashboard.
  useEffect(() => {
    if (takeDashboardRedirect()) navigate('/dashboard', { replace: true });
  }, [organizationId, navigate]);

  return (
    <RealtimeProvider>
      <TooltipProvider delayDuration={700} skipDelayDuration={300}>
        <div className="flex min-h-svh flex-col bg-muted/30 dark:bg-background">
          {isNavVisible(pathname) && <TopNav />}
          <DeferredBanners budget={isNavVisible(pathname)} />
          <main id="main" className="flex flex-1 flex-col">
            <Suspense fallback={<FullPageSpinner />}>
              {/* Another organization is another app: every page starts again with its data. */}
              <Outlet key={organizationId ?? 'none'} />
            </Suspense>
          </main>
        </div>
      </TooltipProvider>
    </RealtimeProvider>
  );
}
