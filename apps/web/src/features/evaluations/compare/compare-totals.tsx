// The comparison's totals: each run's pass rate and its change in points, the regressions and
// improvements, and what changed in cost and in median latency.
import type { EvalComparison } from '@crewline/contracts';
import type { ReactNode } from 'react';

import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { formatShare } from '../runs/eval-run-figures';
import {
  formatCostDelta,
  formatLatencyDelta,
  formatPointsDelta,
  lowerIsBetter,
  passRateTrend,
  TREND_TEXT,
  type Trend,
} from './compare-figures';

function Total({
  title,
  value,
  detail,
  testId,
  className,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    <Card className={cn('gap-1 px-4 py-3 sm:px-5 sm:py-4', className)} data-testid={testId}>
      <p className="text-sm font-medium text-muted-foreground">{title}</p>
      <p className="text-xl font-semibold tracking-tight tabular-nums sm:text-2xl">{value}</p>
      {detail && <p className="text-xs text-muted-foreground tabular-nums">{detail}</p>}
    </Card>
  );
}

function Delta({ text, trend }: { text: string; trend: Trend }) {
  return (
    <span className={TREND_TEXT[trend]} data-trend={trend}>
      {text}
    </span>
  );
}

export function CompareTotals({ comparison }: { comparison: EvalComparison }) {
  const { a, b, totals } = comparison;
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
      <Total
        title="Pass rate"
        testId="compare-pass-rate"
        value={
          <Delta text={formatPointsDelta(totals.passRateDelta)} trend={passRateTrend(totals.passRateDelta)} />
        }
        detail={`${formatShare(a.passRate)} → ${formatShare(b.passRate)}`}
      />
      <Total
        title="Regressions"
        testId="compare-regressions"
        value={<span className={cn(totals.regressions > 0 && TREND_TEXT.worse)}>{totals.regressions}</span>}
        detail="Passed before, fail now"
      />
      <Total
        title="Improvements"
        testId="compare-improvements"
        value={
          <span className={cn(totals.improvements > 0 && TREND_TEXT.better)}>{totals.improvements}</span>
        }
        detail="Failed before, pass now"
      />
      <Total
        title="Cost"
        testId="compare-cost"
        value={
          <Delta text={formatCostDelta(totals.costUsdDelta)} trend={lowerIsBetter(totals.costUsdDelta)} />
        }
      />
      <Total
        title="Latency p50"
        testId="compare-latency"
        // The fifth card: the whole row on a phone, where two stand side by side.
        className="col-span-2 lg:col-span-1"
        value={<Delta text={formatLatencyDelta(totals.p50Delta)} trend={lowerIsBetter(totals.p50Delta)} />}
      />
    </div>
  );
}
