import type { AnalyticsRange, CostGrouping } from '@crewline/contracts';
import { Coins, Cpu, Download, Layers, ReceiptText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { StatCard, StatCardGrid } from '@/components/stat-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { downloadFile } from '@/lib/download';
import { formatCost, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import { rangeLabel } from '../analytics-figures';
import { useCosts } from '../api/costs';
import { costsCsv, costsFileName } from '../costs-csv';
import {
  costDays,
  costsWindow,
  costTotals,
  GROUP_OPTIONS,
  isCostGrouping,
  SETTINGS_COSTS,
  unpricedCallsText,
  type CostTotals,
} from '../costs-figures';
import { CostsChart } from './costs-chart';
import { CostsSkeleton } from './costs-skeleton';
import { CostsTable } from './costs-table';

function CostCards({ totals, range }: { totals: CostTotals; range: AnalyticsRange }) {
  const period = <Badge variant="secondary">{rangeLabel(range)}</Badge>;
  return (
    <StatCardGrid className="lg:grid-cols-3">
      <StatCard
        title="Spend"
        data-testid="metric-spend"
        icon={Coins}
        value={formatCost(totals.costUsd)}
        accent="bg-sky-500/10 text-sky-600 dark:text-sky-400"
      >
        {period}
      </StatCard>
      <StatCard
        title="Model calls"
        data-testid="metric-model-calls"
        icon={Cpu}
        value={formatNumber(totals.calls)}
        accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
      >
        {period}
      </StatCard>
      <StatCard
        title="Tokens"
        data-testid="metric-tokens"
        icon={Layers}
        value={formatNumber(totals.inputTokens + totals.outputTokens)}
        accent="bg-indigo-500/10 text-indigo-600 dark:text-indigo-400"
        // Two to a row on a phone: the third card takes its row.
        className="col-span-2 lg:col-span-1"
      >
        <Badge variant="secondary">
          {formatNumber(totals.inputTokens)} in · {formatNumber(totals.outputTokens)} out
        </Badge>
      </StatCard>
    </StatCardGrid>
  );
}

/** Some calls were of models without a price: how many, which models, and where to price them. */
function UnpricedNote({ totals }: { totals: CostTotals }) {
  return (
    <p
      className="rounded-lg border border-amber-500/30 bg-amber-500/10 px-4 py-2.5 text-sm text-amber-800 dark:text-amber-300"
      data-testid="unpriced-note"
    >
      {unpricedCallsText(totals)}: their cost is unknown. Set a price in{' '}
      <Link to={SETTINGS_COSTS} className="font-medium underline underline-offset-2">
        Settings → Costs
      </Link>
      .
    </p>
  );
}

/**
 * Analytics → Costs: the model spend of the page's range (GET /api/usage/costs), as totals, a chart
 * by day and a table grouped by day, workflow, agent, model, source or trigger, with its CSV. Loaded
 * only when the tab opens (the page's other tabs need neither the contracts' schemas nor this code).
 */
export function CostsTab({ range }: { range: AnalyticsRange }) {
  // The window is fixed when the range is chosen, so its queries keep their keys (costsWindow).
  const [spendWindow, setSpendWindow] = useState(() => costsWindow(range, new Date()));
  if (spendWindow.range !== range) setSpendWindow(costsWindow(range, new Date()));
  const [groupBy, setGroupBy] = useState<CostGrouping>('day');
  const daily = useCosts(spendWindow, 'day');
  const grouped = useCosts(spendWindow, groupBy);

  if (daily.isLoading) return <CostsSkeleton />;
  if (!daily.data) {
    return (
      <LoadErrorState
        icon={ReceiptText}
        title="Could not load costs"
        onRetry={() => {
          void daily.refetch();
          void grouped.refetch();
        }}
        className="py-16"
      />
    );
  }

  const totals = costTotals(daily.data);
  const groupLabel = GROUP_OPTIONS.find((option) => option.value === groupBy)?.label ?? 'Day';
  const rows = grouped.data ?? [];
  // While another grouping loads, the previous one stays on screen, dimmed, and cannot be downloaded.
  const switching = grouped.isPlaceholderData || grouped.isLoading;

  return (
    <div
      className={cn('space-y-6 transition-opacity', daily.isPlaceholderData && 'opacity-60')}
      aria-busy={daily.isPlaceholderData || undefined}
    >
      <CostCards totals={totals} range={range} />
      {totals.unpricedCalls > 0 && <UnpricedNote totals={totals} />}
      {totals.calls === 0 ? (
        <EmptyState icon={ReceiptText} title="No model spend in this range." />
      ) : (
        <>
          <Card className="gap-5">
            <CardHeader>
              <CardTitle>Daily Spend</CardTitle>
              <CardDescription>
                What the model calls of each day cost · {rangeLabel(range).toLowerCase()}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CostsChart days={costDays(daily.data, spendWindow.firstDay, spendWindow.lastDay)} />
            </CardContent>
          </Card>
          <Card className="gap-4 pb-2">
            <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="space-y-1.5">
                <CardTitle>Spend by {groupLabel}</CardTitle>
                <CardDescription>Cost, calls and tokens of each {groupLabel.toLowerCase()}</CardDescription>
              </div>
              <div className="flex items-center gap-2">
                <span className="text-sm text-muted-foreground max-sm:hidden" aria-hidden="true">
                  Group by
                </span>
                <Select value={groupBy} onValueChange={(next) => isCostGrouping(next) && setGroupBy(next)}>
                  <SelectTrigger aria-label="Group by" className="flex-1 sm:w-36 sm:flex-none">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {GROUP_OPTIONS.map((option) => (
                      <SelectItem key={option.value} value={option.value}>
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Button
                  variant="outline"
                  disabled={switching || !grouped.data}
                  onClick={() =>
                    downloadFile(
                      costsFileName(spendWindow.firstDay, spendWindow.lastDay, groupBy),
                      costsCsv(rows),
                      'text/csv;charset=utf-8',
                    )
                  }
                >
                  <Download aria-hidden="true" />
                  Download CSV
                </Button>
              </div>
            </CardHeader>
            <div
              className={cn('transition-opacity', switching && 'opacity-60')}
              aria-busy={switching || undefined}
            >
              {grouped.isError && !grouped.data ? (
                <CardContent className="pb-4">
                  <LoadErrorState
                    icon={ReceiptText}
                    title="Could not load this grouping"
                    onRetry={() => void grouped.refetch()}
                    size="sm"
                  />
                </CardContent>
              ) : (
                <CostsTable rows={rows} groupBy={groupBy} label={`Spend by ${groupLabel.toLowerCase()}`} />
              )}
            </div>
          </Card>
        </>
      )}
    </div>
  );
}
