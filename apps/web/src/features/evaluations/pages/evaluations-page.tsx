import { ClipboardCheck, Database, Plus } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useDatasets } from '../api/datasets';
import { useEvaluations } from '../api/evaluations';
import { NewDatasetDialog } from '../datasets/new-dataset-dialog';
import { EvaluationFormDialog } from '../evaluation-form/evaluation-form-dialog';
import { DatasetList, EvaluationList, ListSkeleton } from '../overview/overview-lists';

function Section({ title, action, children }: { title: string; action: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** /evaluations: the organization's evaluations and the datasets they run on. */
export function EvaluationsPage() {
  useDocumentTitle('Evaluations');
  const evaluations = useEvaluations();
  const datasets = useDatasets();
  const [dialog, setDialog] = useState<'evaluation' | 'dataset' | null>(null);
  const close = (open: boolean) => !open && setDialog(null);

  let evaluationList: ReactNode;
  if (evaluations.isLoading) evaluationList = <ListSkeleton label="Loading evaluations" />;
  else if (evaluations.isError || !evaluations.data)
    evaluationList = (
      <LoadErrorState
        icon={ClipboardCheck}
        title="Could not load evaluations"
        onRetry={() => void evaluations.refetch()}
      />
    );
  else if (evaluations.data.length === 0)
    evaluationList = (
      <EmptyState
        icon={ClipboardCheck}
        title="No evaluations yet"
        description="An evaluation runs a workflow on a dataset's cases and grades every answer."
      />
    );
  else evaluationList = <EvaluationList evaluations={evaluations.data} />;

  let datasetList: ReactNode;
  if (datasets.isLoading) datasetList = <ListSkeleton label="Loading datasets" />;
  else if (datasets.isError || !datasets.data)
    datasetList = (
      <LoadErrorState
        icon={Database}
        title="Could not load datasets"
        onRetry={() => void datasets.refetch()}
      />
    );
  else if (datasets.data.length === 0)
    datasetList = (
      <EmptyState
        icon={Database}
        title="No datasets yet"
        description="Create one and add cases by hand, from a CSV or JSONL file, or from past runs."
      />
    );
  else datasetList = <DatasetList datasets={datasets.data} />;

  return (
    <PageContainer className="space-y-8">
      <PageHeader
        title="Evaluations"
        description="Datasets of cases and the evaluations that grade your workflows on them."
      />
      <Section
        title="Evaluations"
        action={
          <Button onClick={() => setDialog('evaluation')}>
            <Plus aria-hidden="true" />
            New evaluation
          </Button>
        }
      >
        {evaluationList}
      </Section>
      <Section
        title="Datasets"
        action={
          <Button variant="outline" onClick={() => setDialog('dataset')}>
            <Plus aria-hidden="true" />
            New dataset
          </Button>
        }
      >
        {datasetList}
      </Section>
      <EvaluationFormDialog open={dialog === 'evaluation'} onOpenChange={close} evaluation={null} />
      <NewDatasetDialog open={dialog === 'dataset'} onOpenChange={close} />
    </PageContainer>
  );
}
