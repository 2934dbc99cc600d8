// The documentation's frame: a header (brand, theme, sign-in or back to the app), the left navigation
// (a collapsible menu on a phone), the article with its own "On this page" list, and the previous/next
// links. Readable signed out and signed in alike.
import { ArrowUpRight, ChevronDown, ChevronLeft, ChevronRight, Hash, LayoutDashboard } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Brand } from '@/components/brand';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/session';
import { cn } from '@/lib/utils';

import {
  adjacentDocsPages,
  API_REFERENCE_HREF,
  DOCS_NAV,
  DOCS_ROOT,
  headingId,
  isExternalDocsLink,
  type DocsPageLink,
} from '../docs-nav';

interface DocSection {
  title: string;
  content: ReactNode;
}

export interface DocContent {
  /** Paragraphs between the page's lead and its first section. */
  intro?: ReactNode;
  sections: readonly DocSection[];
}

function DocsHeader() {
  const { isAuthenticated } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur-xl supports-backdrop-filter:bg-background/65">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          aria-label="Crewline home"
          className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Brand />
        </Link>
        <span aria-hidden="true" className="h-5 w-px bg-border" />
        <Link
          to={DOCS_ROOT}
          className="rounded-md text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          Docs
        </Link>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <ThemeToggle />
          {isAuthenticated ? (
            <Button asChild size="sm">
              <Link to="/dashboard">
                <LayoutDashboard aria-hidden="true" />
                Open app
              </Link>
            </Button>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm">
                <Link to="/login">Sign In</Link>
              </Button>
              <Button asChild size="sm" className="hidden sm:inline-flex">
                <Link to="/signup">Start Free Trial</Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

/** The page list, grouped; the API reference is a full page load (the server serves it). */
function DocsNavList({ current, onNavigate }: { current: string | null; onNavigate?: () => void }) {
  return (
    <div className="space-y-6">
      {DOCS_NAV.map((group) => (
        <div key={group.title}>
          <p className="px-3 text-xs font-semibold tracking-wider text-muted-foreground/80 uppercase">
            {group.title}
          </p>
          <ul className="mt-2 space-y-0.5">
            {group.links.map((link) => {
              const itemClass =
                'flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none';
              if (isExternalDocsLink(link)) {
                return (
                  <li key={link.href}>
                    <a
                      href={link.href}
                      className={cn(itemClass, 'text-muted-foreground hover:bg-muted hover:text-foreground')}
                    >
                      {link.title}
                      <ArrowUpRight className="size-3.5 opacity-70" aria-hidden="true" />
                    </a>
                  </li>
                );
              }
              const active = current === link.id;
              return (
                <li key={link.href}>
                  <Link
                    to={link.href}
                    onClick={onNavigate}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      itemClass,
                      active
                        ? 'bg-accent font-medium text-accent-foreground'
                        : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                    )}
                  >
                    {link.title}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** On a phone: a bar under the header that opens the page list in place. */
function MobileDocsNav({ page }: { page: DocsPageLink | null }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="sticky top-16 z-30 border-b bg-background/90 backdrop-blur-xl lg:hidden">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="flex h-12 w-full items-center gap-2 text-sm font-medium focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <span className="text-muted-foreground">Docs</span>
          <ChevronRight className="size-3.5 text-muted-foreground" aria-hidden="true" />
          <span className="truncate">{page?.title ?? 'Page not found'}</span>
          <span className="ml-auto flex items-center gap-1 text-muted-foreground">
            Menu
            <ChevronDown
              className={cn('size-4 transition-transform', open && 'rotate-180')}
              aria-hidden="true"
            />
          </span>
        </button>
        <nav
          id={panelId}
          aria-label="Documentation"
          hidden={!open}
          className="max-h-[70svh] overflow-y-auto border-t pt-4 pb-5"
        >
          <DocsNavList current={page?.id ?? null} onNavigate={() => setOpen(false)} />
        </nav>
      </div>
    </div>
  );
}

function SectionHeading({ title }: { title: string }) {
  const id = headingId(title);
  return (
    <h2
      id={id}
      className="group mt-14 scroll-mt-32 border-b pb-2 text-2xl font-semibold tracking-tight text-foreground lg:scroll-mt-20"
    >
      {title}
      <a
        href={`#${id}`}
        aria-label={`Link to ${title}`}
        className="ml-2 inline-flex align-middle text-muted-foreground/60 opacity-0 transition-opacity group-hover:opacity-100 hover:text-primary focus-visible:opacity-100"
      >
        <Hash className="size-4" aria-hidden="true" />
      </a>
    </h2>
  );
}

function OnThisPage({ sections }: { sections: readonly DocSection[] }) {
  return (
    <nav aria-label="On this page" className="text-sm">
      <p className="font-semibold text-foreground">On this page</p>
      <ul className="mt-3 space-y-2 border-l">
        {sections.map((section) => (
          <li key={section.title}>
            <a
              href={`#${headingId(section.title)}`}
              className="-ml-px block border-l border-transparent pl-3 leading-5 text-muted-foreground transition-colors hover:border-foreground/40 hover:text-foreground"
            >
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Pager({ page }: { page: DocsPageLink }) {
  const { previous, next } = adjacentDocsPages(page.id);
  const card =
    'group flex flex-col gap-1 rounded-xl border p-4 transition-colors hover:border-primary/40 hover:bg-muted/40 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none';
  return (
    <nav aria-label="Previous and next page" className="mt-16 grid gap-3 border-t pt-8 sm:grid-cols-2">
      {previous ? (
        <Link to={previous.href} className={card}>
          <span className="flex items-center gap-1 text-xs text-muted-foreground">
            <ChevronLeft className="size-3.5" aria-hidden="true" />
            Previous
          </span>
          <span className="font-medium text-foreground group-hover:text-primary">{previous.title}</span>
        </Link>
      ) : (
        <span className="hidden sm:block" />
      )}
      {next && (
        <Link to={next.href} className={cn(card, 'sm:items-end sm:text-right')}>
          <span className="flex items-center gap-1 text-xs text-muted-foreground">
            Next
            <ChevronRight className="size-3.5" aria-hidden="true" />
          </span>
          <span className="font-medium text-foreground group-hover:text-primary">{next.title}</span>
        </Link>
      )}
    </nav>
  );
}

/** Header, navigation and footer around `children` (the article, or the not-found notice). */
export function DocsFrame({
  page,
  aside,
  children,
}: {
  page: DocsPageLink | null;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-h-svh bg-background text-foreground antialiased">
      <a
        href="#docs-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-60 focus:rounded-md focus:bg-primary focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <DocsHeader />
      <MobileDocsNav key={page?.id ?? 'none'} page={page} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:px-8 xl:grid-cols-[14rem_minmax(0,1fr)_13rem]">
        <aside className="hidden lg:block">
          <nav
            aria-label="Documentation"
            className="sticky top-16 max-h-[calc(100svh-4rem)] overflow-y-auto py-10 pr-2"
          >
            <DocsNavList current={page?.id ?? null} />
          </nav>
        </aside>
        <main id="docs-content" tabIndex={-1} className="min-w-0 py-8 focus:outline-none sm:py-10">
          {children}
        </main>
        {aside && (
          <aside className="hidden xl:block">
            <div className="sticky top-16 max-h-[calc(100svh-4rem)] overflow-y-auto py-10">{aside}</div>
          </aside>
        )}
      </div>
      <footer className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p>Crewline documentation</p>
          <p className="flex gap-4">
            <Link to="/" className="hover:text-foreground">
              Home
            </Link>
            <a href={API_REFERENCE_HREF} className="hover:text-foreground">
              API reference
            </a>
          </p>
        </div>
      </footer>
    </div>
  );
}

/** One documentation page: its group, title and lead, then the sections, then previous/next. */
export function DocArticle({ page, content }: { page: DocsPageLink; content: DocContent }) {
  const group = DOCS_NAV.find((g) => g.links.some((l) => l.href === page.href))?.title;
  return (
    <DocsFrame page={page} aside={<OnThisPage sections={content.sections} />}>
      <article className="max-w-3xl">
        <header>
          {group && <p className="text-sm font-medium text-primary">{group}</p>}
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">{page.title}</h1>
          <p className="mt-3 text-lg leading-8 text-muted-foreground">{page.description}</p>
        </header>
        {content.intro && <div className="mt-6">{content.intro}</div>}
        {content.sections.map((section) => (
          <section key={section.title} aria-labelledby={headingId(section.title)}>
            <SectionHeading title={section.title} />
            <div className="mt-5">{section.content}</div>
          </section>
        ))}
        <Pager page={page} />
      </article>
    </DocsFrame>
  );
}
