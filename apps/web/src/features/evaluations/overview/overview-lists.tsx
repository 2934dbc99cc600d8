// The two lists of /evaluations: the evaluations (what each grades, on which dataset, with how many
// graders, and how its last run went) and the datasets (their size, version and last change). Each
// row opens its page.
import type { Dataset, Evaluation } from '@crewline/contracts';
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { executionStatusTone, StatusBadge } from '@/components/status-badge';
import { Skeleton } from '@/components/ui/skeleton';
import { formatRelativeTime } from '@/lib/format';

import { datasetPath, evaluationPath } from '../datasets/dataset-paths';
import { itemCountText } from '../datasets/import-mapping';

/** A pass rate as people read it: '85 %'. */
function passRateText(passRate: number): string {
  return `${Math.round(passRate * 100)} %`;
}

function Row({
  to,
  label,
  title,
  children,
}: {
  to: string;
  label: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <li>
      <Link
        to={to}
        aria-label={label}
        className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-muted/40 focus-visible:bg-muted/40 focus-visible:outline-none"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium" title={title}>
            {title}
          </p>
          <div className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            {children}
          </div>
        </div>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </Link>
    </li>
  );
}

const LIST = 'divide-y overflow-hidden rounded-xl border bg-card';
const Dot = () => <span aria-hidden="true">·</span>;

function LastRun({ run }: { run: Evaluation['lastRun'] }) {
  if (!run) return <span data-testid="last-run">Never run</span>;
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="last-run">
      {run.passRate !== null && (
        <span className="font-medium text-foreground tabular-nums">{passRateText(run.passRate)}</span>
      )}
      <StatusBadge label={run.status} tone={executionStatusTone(run.status)} />
      <span>{formatRelativeTime(run.createdAt)}</span>
    </span>
  );
}

export function EvaluationList({ evaluations }: { evaluations: Evaluation[] }) {
  return (
    <ul className={LIST} aria-label="Evaluations">
      {evaluations.map((evaluation) => (
        <Row
          key={evaluation.id}
          to={evaluationPath(evaluation.id)}
          label={`Evaluation ${evaluation.name}`}
          title={evaluation.name}
        >
          <span className="truncate">{evaluation.workflowName}</span>
          <Dot />
          <span className="truncate">{evaluation.datasetName}</span>
          <Dot />
          <span>
            {evaluation.graders.length} {evaluation.graders.length === 1 ? 'grader' : 'graders'}
          </span>
          <Dot />
          <LastRun run={evaluation.lastRun} />
        </Row>
      ))}
    </ul>
  );
}

export function DatasetList({ datasets }: { datasets: Dataset[] }) {
  return (
    <ul className={LIST} aria-label="Datasets">
      {datasets.map((dataset) => (
        <Row
          key={dataset.id}
          to={datasetPath(dataset.id)}
          label={`Dataset ${dataset.name}`}
          title={dataset.name}
        >
          <span>{itemCountText(dataset.itemCount)}</span>
          <Dot />
          <span>v{dataset.version}</span>
          <Dot />
          <span>updated {formatRelativeTime(dataset.updatedAt)}</span>
        </Row>
      ))}
    </ul>
  );
}

export function ListSkeleton({ label }: { label: string }) {
  return (
    <div className={LIST} aria-busy="true" aria-label={label}>
      {Array.from({ length: 3 }, (_, index) => (
        <div key={index} className="space-y-2 px-4 py-3">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-3 w-72 max-w-full" />
        </div>
      ))}
    </div>
  );
}
