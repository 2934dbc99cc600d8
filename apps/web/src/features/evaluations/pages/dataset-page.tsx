import type { Grader } from '@crewline/contracts';
import { Database, FileUp, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { LoadErrorState, EmptyState } from '@/components/empty-state';
import { BackLink, NotFoundPage } from '@/components/not-found-page';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { isApiStatus } from '@/lib/api';
import { formatRelativeTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useDatasetItems } from '../api/datasets';
import { AddItemDialog } from '../datasets/add-item-dialog';
import { DatasetItemsTable } from '../datasets/dataset-items-table';
import { EVALUATIONS_PATH } from '../datasets/dataset-paths';
import { DeleteDatasetDialog } from '../datasets/delete-dataset-dialog';
import { ImportDialog } from '../datasets/import-dialog';
import { draftFromGrader } from '../evaluation-form/evaluation-draft';
import { EvaluationFormDialog } from '../evaluation-form/evaluation-form-dialog';
import { itemCountText } from '../datasets/import-mapping';

const BACK = <BackLink to={EVALUATIONS_PATH} label="Back to Evaluations" />;

/** /evaluations/datasets/:id: a dataset's cases, with Add item, Import and Delete dataset. */
export function DatasetPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const read = useDatasetItems(id);
  const [dialog, setDialog] = useState<'add' | 'import' | 'delete' | null>(null);
  const [importedGraders, setImportedGraders] = useState<Grader[] | null>(null);
  useDocumentTitle(read.data?.dataset.name ?? 'Dataset');
  const close = (open: boolean) => !open && setDialog(null);

  if (read.isLoading) {
    return (
      <PageContainer className="space-y-6">
        <div role="status" aria-label="Loading dataset" className="space-y-4">
          <Skeleton className="h-8 w-40" />
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-48 w-full" />
        </div>
      </PageContainer>
    );
  }
  if (isApiStatus(read.error, 404)) {
    return (
      <NotFoundPage
        title="Dataset Not Found"
        item="dataset"
        backTo={EVALUATIONS_PATH}
        backLabel="Back to Evaluations"
      />
    );
  }
  if (read.isError || !read.data) {
    return (
      <PageContainer className="space-y-6">
        {BACK}
        <LoadErrorState
          icon={Database}
          title="Could not load the dataset"
          onRetry={() => void read.refetch()}
        />
      </PageContainer>
    );
  }

  const { dataset, items } = read.data;
  return (
    <PageContainer className="space-y-6">
      {BACK}
      <PageHeader
        title={dataset.name}
        description={
          <>
            {dataset.description && <span className="block">{dataset.description}</span>}
            <span className="text-sm" data-testid="dataset-facts">
              v{dataset.version} · {itemCountText(dataset.itemCount)} · updated{' '}
              {formatRelativeTime(dataset.updatedAt)}
            </span>
          </>
        }
        actions={
          <>
            <Button onClick={() => setDialog('add')}>
              <Plus aria-hidden="true" />
              Add item
            </Button>
            <Button variant="outline" onClick={() => setDialog('import')}>
              <FileUp aria-hidden="true" />
              Import
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              onClick={() => setDialog('delete')}
            >
              <Trash2 aria-hidden="true" />
              Delete dataset
            </Button>
          </>
        }
      />
      <section aria-label="Dataset items">
        {items.length === 0 ? (
          <EmptyState
            icon={Database}
            title="No items yet"
            description="Add a case by hand, import a CSV or JSONL file, or add past runs from the executions list."
            className="py-16"
          />
        ) : (
          <DatasetItemsTable datasetId={dataset.id} items={items} />
        )}
      </section>
      <AddItemDialog datasetId={dataset.id} open={dialog === 'add'} onOpenChange={close} />
      <ImportDialog
        datasetId={dataset.id}
        open={dialog === 'import'}
        onOpenChange={close}
        onImported={(answer) => {
          // An OpenAI Evals export's graders start a new evaluation of this dataset.
          if (answer.graders.length > 0) setImportedGraders(answer.graders);
        }}
      />
      <EvaluationFormDialog
        open={importedGraders !== null}
        onOpenChange={(open) => !open && setImportedGraders(null)}
        evaluation={null}
        initial={
          importedGraders
            ? { datasetId: dataset.id, graders: importedGraders.map((grader) => draftFromGrader(grader)) }
            : undefined
        }
      />
      <DeleteDatasetDialog
        dataset={dataset}
        open={dialog === 'delete'}
        onOpenChange={close}
        onDeleted={() => void navigate(EVALUATIONS_PATH)}
      />
    </PageContainer>
  );
}
