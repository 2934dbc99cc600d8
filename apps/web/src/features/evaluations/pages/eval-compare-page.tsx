// /evaluations/compare?a=&b=: two eval runs of one dataset side by side (a the earlier, b the later):
// the totals with their change, then each item's answers with the word diff, regressions first.
import type { EvalComparison } from '@crewline/contracts';
import { FlaskConical, GitCompare } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { BackLink } from '@/components/not-found-page';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { getErrorMessage, isApiStatus } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useEvalComparison } from '../api/eval-runs';
import { CompareItems } from '../compare/compare-items';
import { CompareTotals } from '../compare/compare-totals';
import { EvalPageSkeleton } from '../runs/eval-page-states';

function CompareView({ comparison }: { comparison: EvalComparison }) {
  const { a, b } = comparison;
  return (
    <PageContainer className="space-y-6">
      <BackLink to={`/evaluations/${b.evaluationId}`} label={`Back to ${b.evaluationName}`} />
      <PageHeader
        title={`${a.versionLabel} → ${b.versionLabel}`}
        description={
          <span className="flex flex-wrap gap-x-2">
            <span>{b.evaluationName}</span>
            <span aria-hidden="true">·</span>
            <Link to={`/evaluations/runs/${a.id}`} className="underline-offset-4 hover:underline">
              {a.versionLabel}, {formatDateTime(a.createdAt)}
            </Link>
            <span aria-hidden="true">·</span>
            <Link to={`/evaluations/runs/${b.id}`} className="underline-offset-4 hover:underline">
              {b.versionLabel}, {formatDateTime(b.createdAt)}
            </Link>
          </span>
        }
      />
      <CompareTotals comparison={comparison} />
      <CompareItems comparison={comparison} />
    </PageContainer>
  );
}

function CompareMessage({ title, description }: { title: string; description: string }) {
  return (
    <PageContainer className="space-y-6">
      <BackLink to="/evaluations" label="Back to Evaluations" />
      <EmptyState
        icon={GitCompare}
        title={title}
        description={description}
        action={
          <Button asChild variant="outline" size="sm">
            <Link to="/evaluations">Go to Evaluations</Link>
          </Button>
        }
      />
    </PageContainer>
  );
}

export function EvalComparePage() {
  const [search] = useSearchParams();
  const a = search.get('a') ?? '';
  const b = search.get('b') ?? '';
  const comparison = useEvalComparison(a, b);
  useDocumentTitle(
    comparison.data
      ? `${comparison.data.a.versionLabel} → ${comparison.data.b.versionLabel}`
      : 'Compare eval runs',
  );

  if (!a || !b)
    return (
      <CompareMessage
        title="Pick two eval runs"
        description="Open an evaluation, tick two of its runs and choose Compare."
      />
    );
  if (comparison.data) return <CompareView comparison={comparison.data} />;
  if (comparison.isLoading) return <EvalPageSkeleton label="Loading comparison" />;
  if (isApiStatus(comparison.error, 400) || isApiStatus(comparison.error, 404))
    return (
      <CompareMessage
        title="These eval runs cannot be compared"
        description={getErrorMessage(comparison.error, 'Pick two runs of the same evaluation.')}
      />
    );
  return (
    <PageContainer className="space-y-6">
      <BackLink to="/evaluations" label="Back to Evaluations" />
      <LoadErrorState
        icon={FlaskConical}
        title="Could not load the comparison"
        onRetry={() => void comparison.refetch()}
      />
    </PageContainer>
  );
}
