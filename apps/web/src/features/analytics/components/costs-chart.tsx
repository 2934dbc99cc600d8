import { formatCost, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import { dayLabel, weekdayLabel } from '../analytics-figures';
import { costBarHeight, rowCost, type CostDay } from '../costs-figures';

/** Up to this many days, each bar has its weekday below and its cost above (not on a phone: too narrow). */
const LABEL_EACH_DAY = 7;
/** With more days, about this many dates are written below the bars. */
const DATE_LABELS = 6;

/** What a bar says to a screen reader and in its tooltip: 'Mon 30 Nov: $0.42, 12 calls'. */
function barDescription(day: CostDay): string {
  const label = dayLabel(day.date);
  if (day.calls === 0) return `${label}: no model calls`;
  const calls = `${formatNumber(day.calls)} ${day.calls === 1 ? 'call' : 'calls'}`;
  const unpriced = day.unpricedCalls > 0 ? `, ${formatNumber(day.unpricedCalls)} without a price` : '';
  return `${label}: ${formatCost(rowCost(day))}, ${calls}${unpriced}`;
}

/** '30 Nov' under a bar of a long range. */
function shortDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/**
 * Spend by day as bars (the Overview's chart, drawn the same way: no charting library), each as tall
 * as its share of the dearest day; a day without spend is a thin line.
 */
export function CostsChart({ days }: { days: readonly CostDay[] }) {
  const max = Math.max(0, ...days.map((day) => day.costUsd));
  const each = days.length <= LABEL_EACH_DAY;
  const labelEvery = each ? 1 : Math.ceil(days.length / DATE_LABELS);
  return (
    <ol
      className={cn('flex items-end', each ? 'gap-2 sm:gap-4' : 'gap-px sm:gap-0.5')}
      aria-label="Spend by day"
    >
      {days.map((day, index) => {
        const description = barDescription(day);
        const fromNewest = days.length - 1 - index;
        const labelled = fromNewest % labelEvery === 0;
        // On a phone, every other date of a long range (they would touch).
        const phoneLabelled = each || (fromNewest / labelEvery) % 2 === 0;
        return (
          <li key={day.date} className="flex min-w-0 flex-1 flex-col items-center gap-2">
            {each && (
              <span
                className={cn(
                  'max-w-full truncate text-xs font-medium tabular-nums max-sm:hidden',
                  day.calls > 0 ? 'text-foreground' : 'text-muted-foreground',
                )}
                aria-hidden="true"
              >
                {day.calls > 0 ? formatCost(rowCost(day)) : '—'}
              </span>
            )}
            <div
              role="img"
              aria-label={description}
              title={description}
              data-testid="cost-bar"
              data-date={day.date}
              className={cn(
                'relative h-36 w-full overflow-hidden sm:h-44',
                each ? 'max-w-12 rounded-md bg-muted/70 dark:bg-muted/60' : 'rounded-sm',
              )}
            >
              <div
                className={cn(
                  'absolute inset-x-0 bottom-0 transition-[height] duration-500',
                  each ? 'rounded-md' : 'rounded-sm',
                  day.costUsd > 0 ? 'bg-sky-500 dark:bg-sky-500/90' : 'h-0.5 bg-muted-foreground/25',
                )}
                style={day.costUsd > 0 ? { height: `${costBarHeight(day.costUsd, max)}%` } : undefined}
              />
            </div>
            {/* The newest day is always labelled; the labels of a long range spread from it. */}
            <span
              className={cn(
                'h-4 text-xs whitespace-nowrap',
                index === days.length - 1 ? 'font-medium text-foreground' : 'text-muted-foreground',
                // A thin bar's date is wider than it: the newest stays inside the card.
                !each && index === days.length - 1 && 'self-end',
                !labelled && 'invisible',
                !phoneLabelled && 'max-sm:invisible',
              )}
              aria-hidden="true"
            >
              {each ? weekdayLabel(day.date) : shortDate(day.date)}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
