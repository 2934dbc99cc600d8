import { RefreshCw, TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** Last-resort screen for a render error or a page chunk that failed to load (e.g. after a deploy). */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <div className="flex min-h-svh items-center justify-center bg-muted/40 px-4">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-4">
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
          <Button className="w-fit" onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden="true" />
            Reload page
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
