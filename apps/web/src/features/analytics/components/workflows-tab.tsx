import type { Analytics, WorkflowAnalytics } from '@crewline/contracts';
import { Workflow } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { StatusBadge, workflowStatusTone } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { capitalize, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import { formatPercent, formatRunTime, rangeLabel, successTrend } from '../analytics-figures';
import { TREND_TEXT } from './trend-colour';

const th =
  'px-2 py-2.5 sm:px-3 text-xs font-medium whitespace-nowrap text-muted-foreground first:pl-6 last:pr-6';
const td = 'px-2 py-3 sm:px-3 whitespace-nowrap tabular-nums first:pl-6 last:pr-6';

function WorkflowRow({ workflow }: { workflow: WorkflowAnalytics }) {
  const finished = workflow.successful + workflow.failed;
  return (
    <tr className="border-t" data-testid="workflow-analytics-row">
      <td className={cn(td, 'w-full max-w-0 whitespace-normal')}>
        <div className="flex min-w-0 items-center gap-2">
          <span className="min-w-0 font-medium break-words">{workflow.name}</span>
          <StatusBadge
            label={workflow.status}
            tone={workflowStatusTone(workflow.status)}
            className="hidden md:inline-flex"
          />
        </div>
        <p className="text-xs text-muted-foreground sm:hidden">
          {capitalize(workflow.processType)} · {formatNumber(workflow.totalTokens)} tokens
        </p>
      </td>
      <td className={cn(td, 'hidden text-muted-foreground sm:table-cell')}>
        {capitalize(workflow.processType)}
      </td>
      <td className={cn(td, 'text-right')}>
        {formatNumber(workflow.executions)}
        {workflow.failed > 0 && (
          <span className="block text-xs text-red-700 dark:text-red-400">{workflow.failed} failed</span>
        )}
      </td>
      <td
        className={cn(
          td,
          'text-right font-medium',
          workflow.successRate === null
            ? 'text-muted-foreground'
            : TREND_TEXT[successTrend(workflow.successRate)],
        )}
      >
        {formatPercent(workflow.successRate)}
      </td>
      {/* The last column on a phone, where Tokens is hidden: it keeps the card's edge padding. */}
      <td className={cn(td, 'text-right max-sm:pr-6')}>
        {finished > 0 ? formatRunTime(workflow.avgExecutionTime) : '—'}
      </td>
      <td className={cn(td, 'hidden text-right sm:table-cell')}>{formatNumber(workflow.totalTokens)}</td>
    </tr>
  );
}

/** Workflows: each workflow that ran in the range, busiest first. */
export function WorkflowsTab({ analytics }: { analytics: Analytics }) {
  const { workflows } = analytics;
  return (
    <Card className="gap-4 pb-2">
      <CardHeader>
        <CardTitle>Workflow Performance</CardTitle>
        <CardDescription>
          Runs, success rate, average run time and tokens of each workflow ·{' '}
          {rangeLabel(analytics.range.days).toLowerCase()}
        </CardDescription>
      </CardHeader>
      {workflows.length === 0 ? (
        <CardContent className="pb-4">
          <EmptyState
            icon={Workflow}
            title="No workflow ran in this period"
            description="Execute a workflow, or pick a longer period, to compare your workflows here."
            action={
              <Button asChild variant="outline" size="sm">
                <Link to="/workflows">Go to Workflows</Link>
              </Button>
            }
          />
        </CardContent>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-label="Workflow performance">
            <thead>
              <tr className="text-left">
                <th scope="col" className={th}>
                  Workflow
                </th>
                <th scope="col" className={cn(th, 'hidden sm:table-cell')}>
                  Process
                </th>
                <th scope="col" className={cn(th, 'text-right')}>
                  Runs
                </th>
                <th scope="col" className={cn(th, 'text-right')}>
                  Success
                </th>
                <th scope="col" className={cn(th, 'text-right max-sm:pr-6')}>
                  Avg Time
                </th>
                <th scope="col" className={cn(th, 'hidden text-right sm:table-cell')}>
                  Tokens
                </th>
              </tr>
            </thead>
            <tbody>
              {workflows.map((workflow) => (
                <WorkflowRow key={workflow.workflowId} workflow={workflow} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
