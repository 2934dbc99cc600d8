import { lazy, Suspense } from 'react';

import { HeroSection } from '../components/hero-section';
import { SiteHeader } from '../components/site-header';

// The sections under the hero and the footer come in one chunk, requested as soon as the first
// screen renders; until it arrives nothing stands in for them (they start below the fold).
const loadBelowTheFold = () => import('../components/below-the-fold');
const BelowTheFoldSections = lazy(() =>
  loadBelowTheFold().then((module) => ({ default: module.BelowTheFoldSections })),
);
const SiteFooter = lazy(() => loadBelowTheFold().then((module) => ({ default: module.SiteFooter })));

/** Public marketing page shown to signed-out visitors at `/`. */
export function LandingPage() {
  return (
    <div className="min-h-svh bg-background text-foreground antialiased">
      <title>Crewline: build, run and review AI agent teams</title>
      <meta
        name="description"
        content="Crewline lets teams build AI agents, wire them into multi-agent workflows on a visual canvas, run them and review every run."
      />
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-60 focus:rounded-md focus:bg-primary focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="focus:outline-none">
        <HeroSection />
        <Suspense fallback={null}>
          <BelowTheFoldSections />
        </Suspense>
      </main>
      <Suspense fallback={null}>
        <SiteFooter />
      </Suspense>
    </div>
  );
}
