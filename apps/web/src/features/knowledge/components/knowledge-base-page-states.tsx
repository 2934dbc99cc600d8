// What /knowledge/:id shows around the knowledge base itself: the way back, the loading skeleton and
// 'Knowledge Base Not Found' (as the agent edit page does for agents).
import { BackLink, NotFoundPage } from '@/components/not-found-page';
import { PageContainer } from '@/components/page-header';
import { StatCardGridSkeleton } from '@/components/stat-card';
import { Skeleton } from '@/components/ui/skeleton';

import { DocumentsListSkeleton } from './documents-list';

export function BackToKnowledge() {
  return <BackLink to="/knowledge" label="Back to Knowledge" />;
}

export function KnowledgeBaseNotFound() {
  return (
    <NotFoundPage
      title="Knowledge Base Not Found"
      item="knowledge base"
      backTo="/knowledge"
      backLabel="Back to Knowledge"
    />
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
