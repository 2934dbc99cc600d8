// What /knowledge/:id shows around the knowledge base itself: the way back, the loading skeleton and
// 'Knowledge Base Not Found' (as the agent edit page does for agents).
import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link } from 'react-router';

import { PageContainer } from '@/components/page-header';
import { StatCardGridSkeleton } from '@/components/stat-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

import { DocumentsListSkeleton } from './documents-list';

export function BackToKnowledge() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 text-muted-foreground">
      <Link to="/knowledge">
        <ArrowLeft aria-hidden="true" />
        Back to Knowledge
      </Link>
    </Button>
  );
}

export function KnowledgeBaseNotFound() {
  return (
    <PageContainer className="flex flex-1 items-start justify-center pt-16 sm:pt-24">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileQuestion className="size-6" aria-hidden="true" />
          </span>
          <div className="space-y-1.5">
            <h1 className="text-xl font-semibold tracking-tight">Knowledge Base Not Found</h1>
            <p className="text-sm text-muted-foreground">
              The knowledge base you&apos;re looking for doesn&apos;t exist or you don&apos;t have access to
              it.
            </p>
          </div>
          <Button asChild>
            <Link to="/knowledge">
              <ArrowLeft aria-hidden="true" />
              Back to Knowledge
            </Link>
          </Button>
        </CardContent>
      </Card>
    </PageContainer>
  );
}

export function KnowledgeBasePageSkeleton() {
  return (
    <PageContainer className="space-y-6">
      <div role="status" aria-label="Loading knowledge base" className="space-y-6">
        <Skeleton className="h-8 w-40" />
        <div className="space-y-2">
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-4 w-80 max-w-full" />
        </div>
        <StatCardGridSkeleton />
        <DocumentsListSkeleton />
      </div>
    </PageContainer>
  );
}
