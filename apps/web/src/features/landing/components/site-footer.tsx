import { BRAND_NAME } from '@/components/brand';

import { footerColumns } from '../content/landing-content';
import { BrandLogo } from './brand-logo';
import { TalkToSales } from '@/components/talk-to-sales-button';

const FOOTER_LINK =
  'text-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none rounded-sm';

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-muted/30">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <div className="grid gap-10 lg:grid-cols-[2fr_3fr]">
          <div className="max-w-xs">
            <BrandLogo />
            <p className="mt-4 text-sm leading-relaxed text-muted-foreground">
              Build AI agents, wire them into multi-agent workflows, run them and review every run.
            </p>
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3">
            {footerColumns.map((column) => (
              <nav key={column.title} aria-labelledby={`footer-${column.title.toLowerCase()}`}>
                <h2
                  id={`footer-${column.title.toLowerCase()}`}
                  className="text-sm font-semibold text-foreground"
                >
                  {column.title}
                </h2>
                <ul className="mt-4 space-y-3">
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <a href={link.href} className={FOOTER_LINK}>
                        {link.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
            <div>
              <h2 className="text-sm font-semibold text-foreground">Company</h2>
              <ul className="mt-4 space-y-3">
                <li>
                  <TalkToSales
                    render={(open) => (
                      <button type="button" onClick={open} className={FOOTER_LINK}>
                        Contact sales
                      </button>
                    )}
                  />
                </li>
              </ul>
            </div>
          </div>
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t border-border pt-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© 2026 {BRAND_NAME}. All rights reserved.</p>
          <p>Made for teams that build with AI agents.</p>
        </div>
      </div>
    </footer>
  );
}
