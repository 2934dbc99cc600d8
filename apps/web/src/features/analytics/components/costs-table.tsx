import type { CostGrouping, CostRow } from '@crewline/contracts';

import { formatCost, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import { dayLabel } from '../analytics-figures';
import { rowCost } from '../costs-figures';

const th =
  'px-2 py-2.5 sm:px-3 text-xs font-medium whitespace-nowrap text-muted-foreground first:pl-6 last:pr-6';
const td = 'px-2 py-3 sm:px-3 whitespace-nowrap tabular-nums first:pl-6 last:pr-6';

/** A day's row is named by its date ('Mon 30 Nov'); the others by the server's label (a name). */
function rowName(row: CostRow, groupBy: CostGrouping): string {
  if (groupBy === 'day') return dayLabel(row.key);
  return row.label || row.key;
}

function CostRowView({ row, groupBy }: { row: CostRow; groupBy: CostGrouping }) {
  const cost = rowCost(row);
  const partlyUnpriced = cost !== null && row.unpricedCalls > 0;
  return (
    <tr className="border-t" data-testid="cost-row">
      <td className={cn(td, 'w-full max-w-0 whitespace-normal')}>
        <span className="font-medium break-words">{rowName(row, groupBy)}</span>
        <p className="text-xs text-muted-foreground md:hidden">
          {formatNumber(row.inputTokens)} in · {formatNumber(row.outputTokens)} out
        </p>
      </td>
      <td className={cn(td, 'text-right font-medium', cost === null && 'text-muted-foreground')}>
        {formatCost(cost)}
        {partlyUnpriced && (
          <span className="block text-xs font-normal text-amber-800 dark:text-amber-300">
            + {formatNumber(row.unpricedCalls)} unpriced
          </span>
        )}
      </td>
      {/* The last column on a phone, where the tokens are hidden: it keeps the card's edge padding. */}
      <td className={cn(td, 'text-right max-md:pr-6')}>{formatNumber(row.calls)}</td>
      <td className={cn(td, 'hidden text-right md:table-cell')}>{formatNumber(row.inputTokens)}</td>
      <td className={cn(td, 'hidden text-right text-muted-foreground md:table-cell')}>
        {formatNumber(row.cachedInputTokens)}
      </td>
      <td className={cn(td, 'hidden text-right md:table-cell')}>{formatNumber(row.outputTokens)}</td>
    </tr>
  );
}

/** The spend of each group: Name, Cost, Calls, Input tokens, Cached input, Output tokens. */
export function CostsTable({
  rows,
  groupBy,
  label,
}: {
  rows: readonly CostRow[];
  groupBy: CostGrouping;
  /** The table's accessible name: 'Spend by agent'. */
  label: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" aria-label={label}>
        <thead>
          <tr className="text-left">
            <th scope="col" className={th}>
              Name
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              Cost
            </th>
            <th scope="col" className={cn(th, 'text-right max-md:pr-6')}>
              Calls
            </th>
            <th scope="col" className={cn(th, 'hidden text-right md:table-cell')}>
              Input tokens
            </th>
            <th scope="col" className={cn(th, 'hidden text-right md:table-cell')}>
              Cached input
            </th>
            <th scope="col" className={cn(th, 'hidden text-right md:table-cell')}>
              Output tokens
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <CostRowView key={row.key} row={row} groupBy={groupBy} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
