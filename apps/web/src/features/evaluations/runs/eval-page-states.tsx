// What the Evaluations pages show around their subject: the way back, 'Not Found' and the loading
// skeleton.
import { BackLink, NotFoundPage } from '@/components/not-found-page';
import { PageContainer } from '@/components/page-header';
import { StatCardGridSkeleton } from '@/components/stat-card';
import { Skeleton } from '@/components/ui/skeleton';

export function BackToEvaluations() {
  return <BackLink to="/evaluations" label="Back to Evaluations" />;
}

export function EvaluationNotFound() {
  return (
    <NotFoundPage
      title="Evaluation Not Found"
      item="evaluation"
      backTo="/evaluations"
      backLabel="Back to Evaluations"
    />
  );
}

export function EvalRunNotFound() {
  return (
    <NotFoundPage
      title="Eval Run Not Found"
      item="eval run"
      backTo="/evaluations"
      backLabel="Back to Evaluations"
    />
  );
}

export function EvalPageSkeleton({ label }: { label: string }) {
  return (
    <PageContainer className="space-y-6">
      <div role="status" aria-label={label} className="space-y-6">
        <Skeleton className="h-8 w-40" />
        <div className="space-y-2">
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-4 w-80 max-w-full" />
        </div>
        <StatCardGridSkeleton />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
    </PageContainer>
  );
}
