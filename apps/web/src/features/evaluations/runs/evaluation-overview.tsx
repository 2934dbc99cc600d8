// What an evaluation is: the workflow it grades, the dataset it runs, its graders (name · type ·
// weight), the share of graders an item must pass, and its nightly run if it has one.
import { graderTypeLabels, type Evaluation, type Grader } from '@crewline/contracts';
import { Database, Workflow } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';

import { formatShare } from './eval-run-figures';

/** 'Exact answer · Exact match · weight 2'; the type once when the grader has no name of its own. */
function graderChipLabel(grader: Grader): string {
  const type = graderTypeLabels[grader.type];
  const name = grader.name?.trim();
  return [name && name !== type ? name : null, type, `weight ${grader.weight ?? 1}`]
    .filter(Boolean)
    .join(' · ');
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

export function EvaluationOverview({ evaluation }: { evaluation: Evaluation }) {
  return (
    <Card className="py-4">
      <CardContent className="px-4 sm:px-6">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Workflow">
            <Link
              to={`/workflows/edit/${evaluation.workflowId}`}
              className="inline-flex items-center gap-1.5 text-primary underline-offset-4 hover:underline"
            >
              <Workflow className="size-4 shrink-0" aria-hidden="true" />
              {evaluation.workflowName}
            </Link>
          </Fact>
          <Fact label="Dataset">
            <Link
              to={`/evaluations/datasets/${evaluation.datasetId}`}
              className="inline-flex items-center gap-1.5 text-primary underline-offset-4 hover:underline"
            >
              <Database className="size-4 shrink-0" aria-hidden="true" />
              {evaluation.datasetName}
            </Link>
          </Fact>
          <Fact label="Pass threshold">
            {formatShare(evaluation.passThreshold)} of the graders&apos; weight
          </Fact>
          <Fact label="Schedule">
            {evaluation.schedule?.nightly
              ? `Nightly against the active version · alert below ${formatShare(evaluation.schedule.minPassRate)}`
              : 'None'}
          </Fact>
          <div className="space-y-1.5 sm:col-span-2 lg:col-span-4">
            <dt className="text-xs font-medium text-muted-foreground">Graders</dt>
            <dd>
              <ul className="flex flex-wrap gap-1.5" aria-label="Graders">
                {evaluation.graders.map((grader, index) => (
                  <li key={index}>
                    <Badge variant="secondary" className="font-normal whitespace-normal">
                      {graderChipLabel(grader)}
                    </Badge>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
