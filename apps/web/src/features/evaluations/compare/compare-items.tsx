// The comparison item by item, regressions first (the API's order): each case's input and expected
// answer, both runs' answers side by side with the word diff, each verdict and the score's change.
// The filter chips narrow it to regressions, improvements or anything that changed.
import type { EvalComparison } from '@crewline/contracts';
import { CircleCheck, CircleDashed, CircleX } from 'lucide-react';
import { useState } from 'react';

import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

import { ITEM_STATE_LABELS, itemState, shortText, valueText, type ItemState } from '../runs/eval-run-figures';
import {
  COMPARE_FILTER_LABELS,
  compareFilters,
  filterCounts,
  filterItems,
  formatScoreDelta,
  TREND_TEXT,
  type CompareFilter,
  type CompareItem,
} from './compare-figures';
import { TextDiff } from './text-diff';

const VERDICT: Record<ItemState, { icon: typeof CircleCheck; className: string }> = {
  passed: { icon: CircleCheck, className: 'text-emerald-700 dark:text-emerald-400' },
  failed: { icon: CircleX, className: 'text-red-700 dark:text-red-400' },
  pending: { icon: CircleDashed, className: 'text-muted-foreground' },
  not_run: { icon: CircleDashed, className: 'text-muted-foreground' },
};

function Verdict({ state }: { state: ItemState }) {
  const { icon: Icon, className } = VERDICT[state];
  return (
    <span className={cn('inline-flex items-center gap-1 text-xs font-medium', className)}>
      <Icon className="size-3.5" aria-hidden="true" />
      {ITEM_STATE_LABELS[state]}
    </span>
  );
}

function Side({
  label,
  side,
  before,
  after,
  which,
}: {
  label: string;
  side: CompareItem['a'];
  before: string;
  after: string;
  which: 'before' | 'after';
}) {
  return (
    <div
      className="min-w-0 space-y-1.5 rounded-lg border bg-background/60 p-3"
      data-testid={`compare-side-${which}`}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        {side ? <Verdict state={itemState(side)} /> : null}
      </div>
      {side ? (
        <>
          <div className="max-h-72 overflow-y-auto text-sm">
            {before || after ? (
              <TextDiff before={before} after={after} side={which} />
            ) : (
              <span className="text-muted-foreground">No output</span>
            )}
          </div>
          {side.error && <p className="text-xs break-words text-red-700 dark:text-red-400">{side.error}</p>}
        </>
      ) : (
        <p className="text-sm text-muted-foreground italic">Not in this run</p>
      )}
    </div>
  );
}

function CompareRow({ item, labels }: { item: CompareItem; labels: [string, string] }) {
  const before = item.a ? valueText(item.a.output) : '';
  const after = item.b ? valueText(item.b.output) : '';
  const expected = shortText(item.expected, 160);
  return (
    <li
      className={cn(
        'space-y-3 rounded-xl border p-3 sm:p-4',
        item.regressed && 'border-red-500/40',
        item.improved && 'border-emerald-500/40',
      )}
      data-testid="compare-row"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 space-y-0.5">
          <p className="font-medium break-words" data-testid="compare-input">
            {shortText(item.input, 200) || '—'}
          </p>
          {expected && (
            <p className="text-xs break-words text-muted-foreground">
              Expected: <span className="text-foreground">{expected}</span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {item.regressed && (
            <Badge
              variant="outline"
              className="border-red-500/30 bg-red-500/10 text-red-700 dark:text-red-300"
            >
              Regressed
            </Badge>
          )}
          {item.improved && (
            <Badge
              variant="outline"
              className="border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300"
            >
              Improved
            </Badge>
          )}
          <span
            className={cn(
              'text-xs tabular-nums',
              item.scoreDelta === null || Math.abs(item.scoreDelta) < 0.005
                ? 'text-muted-foreground'
                : TREND_TEXT[item.scoreDelta > 0 ? 'better' : 'worse'],
            )}
            title="Score change"
          >
            <span className="sr-only">Score change </span>
            {formatScoreDelta(item.scoreDelta)}
          </span>
        </div>
      </div>
      <div className="grid gap-2 md:grid-cols-2">
        <Side label={labels[0]} side={item.a} before={before} after={after} which="before" />
        <Side label={labels[1]} side={item.b} before={before} after={after} which="after" />
      </div>
    </li>
  );
}

export function CompareItems({ comparison }: { comparison: EvalComparison }) {
  const [filter, setFilter] = useState<CompareFilter>('all');
  const counts = filterCounts(comparison.items);
  const shown = filterItems(comparison.items, filter);
  const labels: [string, string] = [comparison.a.versionLabel, comparison.b.versionLabel];
  return (
    <section aria-labelledby="compare-items-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="compare-items-title" className="font-semibold">
          Items
        </h2>
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Show">
          {compareFilters.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              onClick={() => setFilter(value)}
              className={cn(
                'inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                filter === value
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'bg-background text-muted-foreground hover:bg-accent hover:text-foreground',
              )}
            >
              {COMPARE_FILTER_LABELS[value]}
              <span className="text-xs tabular-nums opacity-80">{counts[value]}</span>
            </button>
          ))}
        </div>
      </div>
      {shown.length === 0 ? (
        <EmptyState
          title={filter === 'all' ? 'No items' : `No ${COMPARE_FILTER_LABELS[filter].toLowerCase()}`}
          description={filter === 'all' ? undefined : 'Pick All to see every item.'}
        />
      ) : (
        <ul className="space-y-3">
          {shown.map((item) => (
            <CompareRow key={item.itemId} item={item} labels={labels} />
          ))}
        </ul>
      )}
    </section>
  );
}
