import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link } from 'react-router';

import { PageContainer } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** The way back from an item's page to its list: "← Back to Agents". */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 text-muted-foreground">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}

/**
 * What an item's page shows when the item is not there (deleted, mistyped, or another organization's):
 * '{title}', why in one line, and the way back to its list.
 */
export function NotFoundPage({
  title,
  item,
  backTo,
  backLabel,
}: {
  /** 'Agent Not Found'. */
  title: string;
  /** 'agent', in "The agent you're looking for doesn't exist…". */
  item: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <PageContainer className="flex flex-1 items-start justify-center pt-16 sm:pt-24">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileQuestion className="size-6" aria-hidden="true" />
          </span>
          <div className="space-y-1.5">
            <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
            <p className="text-sm text-muted-foreground">
              The {item} you&apos;re looking for doesn&apos;t exist or you don&apos;t have access to it.
            </p>
          </div>
          <Button asChild>
            <Link to={backTo}>
              <ArrowLeft aria-hidden="true" />
              {backLabel}
            </Link>
          </Button>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
