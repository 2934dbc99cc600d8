// /evaluations/runs/:id: one eval run, live while it runs (read every 1.5 s until it ends), then its
// pass rate, scores, cost, latency and every item, failures first.
import type { EvalRun } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, ClipboardList, FlaskConical } from 'lucide-react';
import { useEffect } from 'react';
import { useParams } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { BackLink } from '@/components/not-found-page';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { isApiStatus } from '@/lib/api';
import { evaluationKeys } from '@/lib/evaluation-keys';
import { formatDateTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useEvalRun } from '../api/eval-runs';
import { EvalItemsTable } from '../runs/eval-items-table';
import { EvalPageSkeleton, EvalRunNotFound } from '../runs/eval-page-states';
import { EvalRunProgress } from '../runs/eval-run-progress';
import { EvalRunStatusBadge } from '../runs/eval-run-status-badge';
import { EvalRunSummaryCards } from '../runs/eval-run-summary';

function EvalRunView({ run }: { run: EvalRun }) {
  const queryClient = useQueryClient();
  const running = run.status === 'running';
  // Once it ends, the evaluation's list of runs shows its final figures too.
  useEffect(() => {
    if (!running)
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluationRuns(run.evaluationId) });
  }, [running, run.evaluationId, queryClient]);

  return (
    <PageContainer className="space-y-6">
      <BackLink to={`/evaluations/${run.evaluationId}`} label={`Back to ${run.evaluationName}`} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="break-words">{run.evaluationName}</span>
            <EvalRunStatusBadge status={run.status} className="text-sm" />
          </span>
        }
        description={
          <span className="flex flex-wrap gap-x-2">
            <span>against {run.versionLabel}</span>
            <span aria-hidden="true">·</span>
            <span>dataset v{run.datasetVersion}</span>
            <span aria-hidden="true">·</span>
            <span>started {formatDateTime(run.createdAt)}</span>
          </span>
        }
      />
      {running && <EvalRunProgress run={run} />}
      {run.error && (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{run.error}</AlertDescription>
        </Alert>
      )}
      <EvalRunSummaryCards run={run} />
      <section aria-labelledby="eval-items-title" className="space-y-3">
        <h2 id="eval-items-title" className="font-semibold">
          Items
          <span className="ml-2 text-sm font-normal text-muted-foreground">{run.items.length}</span>
        </h2>
        {run.items.length === 0 ? (
          <EmptyState
            icon={ClipboardList}
            title="No items yet"
            description="Items show here as they are run."
          />
        ) : (
          <EvalItemsTable items={run.items} running={running} />
        )}
      </section>
    </PageContainer>
  );
}

export function EvalRunPage() {
  const { id = '' } = useParams();
  const run = useEvalRun(id);
  useDocumentTitle(run.data ? `${run.data.evaluationName} · ${run.data.versionLabel}` : 'Eval run');

  if (!id) return <EvalRunNotFound />;
  if (run.data) return <EvalRunView key={id} run={run.data} />;
  if (run.isLoading) return <EvalPageSkeleton label="Loading eval run" />;
  if (isApiStatus(run.error, 404) || isApiStatus(run.error, 400)) return <EvalRunNotFound />;
  return (
    <PageContainer className="space-y-6">
      <BackLink to="/evaluations" label="Back to Evaluations" />
      <LoadErrorState
        icon={FlaskConical}
        title="Could not load this eval run"
        onRetry={() => void run.refetch()}
      />
    </PageContainer>
  );
}
