import { ArrowLeft, Hammer, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { PageContainer, PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * A page whose screen is still being built: its real title, an honest subtitle, and what the area
 * will offer. Nothing on it pretends to work.
 */
export function ComingSoonPage({
  title,
  description,
  icon: Icon = Hammer,
  heading,
  summary,
  upcoming,
  actions,
  children,
}: {
  title: string;
  description: string;
  icon?: LucideIcon;
  heading: string;
  summary: string;
  upcoming: string[];
  actions?: ReactNode;
  children?: ReactNode;
}) {
  useDocumentTitle(title);

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader title={title} description={description} actions={actions} />
      {children}
      <Card className="overflow-hidden py-0">
        <CardContent className="grid gap-8 p-6 sm:p-8 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:items-center">
          <div className="space-y-4">
            <Badge variant="outline" className="border-primary/30 bg-primary/5 text-primary">
              Coming soon
            </Badge>
            <div className="space-y-2">
              <h2 className="text-xl font-semibold tracking-tight">{heading}</h2>
              <p className="text-sm text-muted-foreground">{summary}</p>
            </div>
            <Button asChild variant="outline">
              <Link to="/dashboard">
                <ArrowLeft aria-hidden="true" />
                Back to Dashboard
              </Link>
            </Button>
          </div>
          <div className="rounded-xl border bg-muted/40 p-5">
            <div className="mb-4 flex items-center gap-3">
              <span className="grid size-10 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <p className="text-sm font-medium">What this area will offer</p>
            </div>
            <ul className="space-y-2.5 text-sm text-muted-foreground">
              {upcoming.map((item) => (
                <li key={item} className="flex gap-2.5">
                  <span className="mt-2 size-1.5 shrink-0 rounded-full bg-primary/60" aria-hidden="true" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
