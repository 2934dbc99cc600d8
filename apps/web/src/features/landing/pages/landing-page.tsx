import { CtaSection } from '../components/cta-section';
import { FaqSection } from '../components/faq-section';
import { FeaturesSection } from '../components/features-section';
import { HeroSection } from '../components/hero-section';
import { LogosStrip } from '../components/logos-strip';
import { PlatformSection } from '../components/platform-section';
import { PricingSection } from '../components/pricing-section';
import { SiteFooter } from '../components/site-footer';
import { SiteHeader } from '../components/site-header';
import { TemplatesSection } from '../components/templates-section';
import { TestimonialsSection } from '../components/testimonials-section';

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
        <LogosStrip />
        <FeaturesSection />
        <PlatformSection />
        <TemplatesSection />
        <PricingSection />
        <FaqSection />
        <TestimonialsSection />
        <CtaSection />
      </main>
      <SiteFooter />
    </div>
  );
}
