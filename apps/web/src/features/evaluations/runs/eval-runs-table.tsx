// An evaluation's runs, newest first: version, status, progress, pass rate, cost, p95 latency and
// when it started. Ticking exactly two offers 'Compare' (the older as a, the newer as b).
import type { EvalRunSummary } from '@crewline/contracts';
import { GitCompare } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { formatCost, formatDateTime, formatRelativeTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { comparePath, compareOrder, formatLatency, formatProgress, formatShare } from './eval-run-figures';
import { EvalRunStatusBadge } from './eval-run-status-badge';

const th = 'px-2 py-2.5 text-left text-xs font-medium whitespace-nowrap text-muted-foreground sm:px-3';
const td = 'px-2 py-3 whitespace-nowrap tabular-nums sm:px-3';

export function EvalRunsTable({ runs }: { runs: EvalRunSummary[] }) {
  const navigate = useNavigate();
  const [picked, setPicked] = useState<string[]>([]);
  const pickedRuns = runs.filter((run) => picked.includes(run.id));
  const pair = compareOrder(pickedRuns);

  const toggle = (id: string, on: boolean) =>
    setPicked((current) =>
      on ? [...current.filter((other) => other !== id), id] : current.filter((other) => other !== id),
    );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {pickedRuns.length === 2 ? '2 runs selected' : 'Select two runs to compare them.'}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={!pair}
          onClick={() => pair && void navigate(comparePath(pair[0], pair[1]))}
        >
          <GitCompare aria-hidden="true" />
          Compare
        </Button>
      </div>
      <div className="overflow-x-auto rounded-xl border">
        <table className="w-full text-sm" aria-label="Eval runs">
          <thead>
            <tr>
              <th scope="col" className={cn(th, 'w-0 pl-3 sm:pl-4')}>
                <span className="sr-only">Select</span>
              </th>
              <th scope="col" className={th}>
                Version
              </th>
              <th scope="col" className={th}>
                Status
              </th>
              <th scope="col" className={cn(th, 'text-right')}>
                Progress
              </th>
              <th scope="col" className={cn(th, 'text-right')}>
                Pass rate
              </th>
              <th scope="col" className={cn(th, 'hidden text-right sm:table-cell')}>
                Cost
              </th>
              <th scope="col" className={cn(th, 'hidden text-right md:table-cell')}>
                p95 latency
              </th>
              <th scope="col" className={cn(th, 'hidden pr-3 sm:table-cell sm:pr-4')}>
                Started
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => {
              const checked = picked.includes(run.id);
              return (
                <tr key={run.id} className="border-t" data-testid="eval-run-row">
                  <td className={cn(td, 'pl-3 sm:pl-4')}>
                    <Checkbox
                      checked={checked}
                      // A third pick waits until one of the two is let go.
                      disabled={!checked && picked.length >= 2}
                      onCheckedChange={(value) => toggle(run.id, value === true)}
                      aria-label={`Select the run against ${run.versionLabel} of ${formatDateTime(run.createdAt)}`}
                    />
                  </td>
                  <td className={cn(td, 'font-medium')}>
                    <Link
                      to={`/evaluations/runs/${run.id}`}
                      className="text-primary underline-offset-4 hover:underline"
                    >
                      {run.versionLabel}
                    </Link>
                  </td>
                  <td className={td}>
                    <EvalRunStatusBadge status={run.status} />
                  </td>
                  <td className={cn(td, 'text-right')}>{formatProgress(run.progress)}</td>
                  <td className={cn(td, 'text-right font-medium')}>{formatShare(run.passRate)}</td>
                  <td className={cn(td, 'hidden text-right sm:table-cell')}>{formatCost(run.costUsd)}</td>
                  <td className={cn(td, 'hidden text-right md:table-cell')}>
                    {formatLatency(run.latencyMs.p95)}
                  </td>
                  <td className={cn(td, 'hidden pr-3 text-muted-foreground sm:table-cell sm:pr-4')}>
                    <time dateTime={run.createdAt} title={formatDateTime(run.createdAt)}>
                      {formatRelativeTime(run.createdAt)}
                    </time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
