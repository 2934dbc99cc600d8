// /evaluations/:id: an evaluation (its workflow, dataset, graders, threshold and schedule), its runs
// (tick two to compare them), 'Run evaluation', Edit and Delete.
import type { Evaluation } from '@crewline/contracts';
import { FlaskConical, Pencil, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { isApiStatus } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useDeleteEvaluation, useEvaluation } from '../api/eval-run-evaluation';
import { useEvalRuns } from '../api/eval-runs';
import { EvaluationFormDialog } from '../evaluation-form/evaluation-form-dialog';
import { BackToEvaluations, EvalPageSkeleton, EvaluationNotFound } from '../runs/eval-page-states';
import { EvalRunsTable } from '../runs/eval-runs-table';
import { EvaluationOverview } from '../runs/evaluation-overview';
import { RunEvaluationDialog } from '../runs/run-evaluation-dialog';

function EvaluationRuns({ evaluation, onRun }: { evaluation: Evaluation; onRun: () => void }) {
  const runs = useEvalRuns(evaluation.id);
  if (runs.isLoading) return <Skeleton className="h-40 w-full rounded-xl" />;
  if (runs.isError || !runs.data)
    return (
      <LoadErrorState
        icon={FlaskConical}
        title="Could not load the runs"
        size="sm"
        onRetry={() => void runs.refetch()}
      />
    );
  if (runs.data.length === 0)
    return (
      <EmptyState
        icon={FlaskConical}
        title="No runs yet"
        description="Run the evaluation against a version of the workflow to see how it does."
        action={
          <Button size="sm" onClick={onRun}>
            <Play aria-hidden="true" />
            Run evaluation
          </Button>
        }
      />
    );
  return <EvalRunsTable runs={runs.data} />;
}

function EvaluationView({ evaluation }: { evaluation: Evaluation }) {
  const navigate = useNavigate();
  const remove = useDeleteEvaluation();
  const [runOpen, setRunOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  return (
    <PageContainer className="space-y-6">
      <BackToEvaluations />
      <PageHeader
        title={<span className="break-words">{evaluation.name}</span>}
        description={`Grades ${evaluation.workflowName} on ${evaluation.datasetName}`}
        actions={
          <>
            <Button onClick={() => setRunOpen(true)}>
              <Play aria-hidden="true" />
              Run evaluation
            </Button>
            <Button variant="outline" onClick={() => setEditOpen(true)}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              onClick={() => setDeleteOpen(true)}
            >
              <Trash2 aria-hidden="true" />
              Delete evaluation
            </Button>
          </>
        }
      />
      <EvaluationOverview evaluation={evaluation} />
      <section aria-labelledby="eval-runs-title" className="space-y-3">
        <h2 id="eval-runs-title" className="font-semibold">
          Runs
        </h2>
        <EvaluationRuns evaluation={evaluation} onRun={() => setRunOpen(true)} />
      </section>

      <RunEvaluationDialog evaluation={evaluation} open={runOpen} onOpenChange={setRunOpen} />
      <EvaluationFormDialog open={editOpen} onOpenChange={setEditOpen} evaluation={evaluation} />
      <ConfirmDeleteDialog
        title="Delete this evaluation?"
        description={`"${evaluation.name}" and all its runs will be deleted. Its dataset stays.`}
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(
            { id: evaluation.id, name: evaluation.name },
            {
              onSuccess: () => void navigate('/evaluations'),
              onSettled: () => setDeleteOpen(false),
            },
          )
        }
      />
    </PageContainer>
  );
}

export function EvaluationPage() {
  const { id = '' } = useParams();
  const evaluation = useEvaluation(id);
  useDocumentTitle(evaluation.data ? evaluation.data.name : 'Evaluation');

  if (!id) return <EvaluationNotFound />;
  // A failed background refetch keeps showing what we have.
  if (evaluation.data) return <EvaluationView key={id} evaluation={evaluation.data} />;
  if (evaluation.isLoading) return <EvalPageSkeleton label="Loading evaluation" />;
  if (isApiStatus(evaluation.error, 404) || isApiStatus(evaluation.error, 400)) return <EvaluationNotFound />;
  return (
    <PageContainer className="space-y-6">
      <BackToEvaluations />
      <LoadErrorState
        icon={FlaskConical}
        title="Could not load this evaluation"
        onRetry={() => void evaluation.refetch()}
      />
    </PageContainer>
  );
}
