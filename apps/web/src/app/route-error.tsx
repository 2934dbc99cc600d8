import { RefreshCw, TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

import { buttonVariants } from '@/components/ui/button-variants';

/**
 * Last-resort screen for a render error or a page chunk that failed to load (e.g. after a deploy).
 * It is part of the entry, which stays small (the landing page's budget, docs/product-rules.md), so it
 * draws the card and the button with their classes (none of its own overrides one) instead of <Card>
 * and <Button>, which merge classes with tailwind-merge.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <div className="flex min-h-svh items-center justify-center bg-muted/40 px-4">
      <div
        data-slot="card"
        className="flex w-full max-w-md flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm"
      >
        <div data-slot="card-content" className="flex flex-col gap-4 px-6">
          <div className="flex items-center gap-3">
            <span className="grid size-10 shrink-0 place-items-center rounded-full bg-destructive/10 text-destructive">
              <TriangleAlert className="size-5" aria-hidden="true" />
            </span>
            <h1 className="text-xl font-semibold">Something went wrong</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            This page could not be displayed. Reloading usually fixes it; if it keeps happening, please
            contact support.
          </p>
          {detail && (
            <pre className="max-h-32 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">
              {detail}
            </pre>
          )}
          <button
            data-slot="button"
            className={buttonVariants({ className: 'w-fit' })}
            onClick={() => window.location.reload()}
          >
            <RefreshCw aria-hidden="true" />
            Reload page
          </button>
        </div>
      </div>
    </div>
  );
}
