import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

import { ThemeToggle } from '@/components/theme-toggle';

import { sectionLinks } from '../content/hero-content';
import { firstScreenClasses } from '../first-screen-classes';
import { BrandLogo } from './brand-logo';

const navLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const desktop = window.matchMedia('(min-width: 768px)');
    const onResize = () => {
      if (desktop.matches) setOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    desktop.addEventListener('change', onResize);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      desktop.removeEventListener('change', onResize);
    };
  }, [open]);

  return (
    <header className="sticky top-0 z-50 border-b border-border/60 bg-background/75 backdrop-blur-xl supports-backdrop-filter:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6 lg:px-8">
        <BrandLogo onClick={close} />

        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 md:flex">
          {sectionLinks.map((link) => (
            <a key={link.href} href={link.href} className={navLinkClass}>
              {link.label}
            </a>
          ))}
          <a href="/docs" className={navLinkClass}>
            Docs
          </a>
        </nav>

        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <Link to="/login" data-slot="button" className={firstScreenClasses.headerSignIn}>
            Sign In
          </Link>
          <Link to="/signup" data-slot="button" className={firstScreenClasses.headerSignUp}>
            Start Free Trial
          </Link>
          <button
            type="button"
            data-slot="button"
            className={firstScreenClasses.menuToggle}
            aria-label="Toggle menu"
            aria-expanded={open}
            aria-controls="landing-mobile-menu"
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </button>
        </div>
      </div>

      <div
        id="landing-mobile-menu"
        hidden={!open}
        className="border-t border-border/60 bg-background/95 backdrop-blur-xl md:hidden"
      >
        <nav aria-label="Mobile" className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-4 sm:px-6">
          {sectionLinks.map((link) => (
            <a
              key={link.href}
              href={link.href}
              onClick={close}
              className="rounded-md px-3 py-2.5 text-base font-medium text-foreground hover:bg-muted"
            >
              {link.label}
            </a>
          ))}
          <a
            href="/docs"
            onClick={close}
            className="rounded-md px-3 py-2.5 text-base font-medium text-foreground hover:bg-muted"
          >
            Docs
          </a>
          <div className="mt-3 grid grid-cols-2 gap-3 border-t border-border/60 pt-4">
            <Link to="/login" onClick={close} data-slot="button" className={firstScreenClasses.menuSignIn}>
              Sign In
            </Link>
            <Link to="/signup" onClick={close} data-slot="button" className={firstScreenClasses.menuSignUp}>
              Start Free Trial
            </Link>
          </div>
        </nav>
      </div>
    </header>
  );
}
