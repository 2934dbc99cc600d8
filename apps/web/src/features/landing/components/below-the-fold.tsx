import { CtaSection } from './cta-section';
import { FaqSection } from './faq-section';
import { FeaturesSection } from './features-section';
import { LogosStrip } from './logos-strip';
import { PlatformSection } from './platform-section';
import { PricingSection } from './pricing-section';
import { TemplatesSection } from './templates-section';
import { TestimonialsSection } from './testimonials-section';

export { SiteFooter } from './site-footer';

/**
 * Everything under the hero, in page order. The landing page loads it right after its first screen
 * (header and hero), so the sections' tabs, accordion, cards and icons and the template library's
 * data fetching are not part of what a first visit downloads before the page is usable.
 */
export function BelowTheFoldSections() {
  return (
    <>
      <LogosStrip />
      <FeaturesSection />
      <PlatformSection />
      <TemplatesSection />
      <PricingSection />
      <FaqSection />
      <TestimonialsSection />
      <CtaSection />
    </>
  );
}
