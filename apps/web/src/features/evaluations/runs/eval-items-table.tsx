// An eval run's items in the order the API gives them, failures first: each item's verdict, input,
// answer, expected answer, grades ('name 0.75', green when it passed, its reason on hover and in the
// item's details), cost, time and a link to the run it made. A row opens to show everything in full.
import type { EvalItemResult, Grade } from '@crewline/contracts';
import { ChevronDown, ChevronRight, CircleCheck, CircleDashed, CircleX, LoaderCircle } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { formatCost, formatMilliseconds } from '@/lib/format';
import { runDetailsPath } from '@/lib/run-links';
import { cn } from '@/lib/utils';

import {
  gradeLabel,
  ITEM_STATE_LABELS,
  itemState,
  shortText,
  valueText,
  type ItemState,
} from './eval-run-figures';

const th = 'px-2 py-2.5 text-left text-xs font-medium whitespace-nowrap text-muted-foreground sm:px-3';
const td = 'px-2 py-2.5 align-top sm:px-3';

const STATE_ICON: Record<ItemState, { icon: typeof CircleCheck; className: string }> = {
  passed: { icon: CircleCheck, className: 'text-emerald-600 dark:text-emerald-400' },
  failed: { icon: CircleX, className: 'text-red-600 dark:text-red-400' },
  pending: {
    icon: LoaderCircle,
    className: 'animate-spin text-blue-600 motion-reduce:animate-none dark:text-blue-400',
  },
  not_run: { icon: CircleDashed, className: 'text-muted-foreground' },
};

function ItemStateIcon({ state }: { state: ItemState }) {
  const { icon: Icon, className } = STATE_ICON[state];
  return (
    <span
      className="inline-flex"
      title={ITEM_STATE_LABELS[state]}
      data-testid="eval-item-state"
      data-state={state}
    >
      <Icon className={cn('size-4', className)} aria-hidden="true" />
      <span className="sr-only">{ITEM_STATE_LABELS[state]}</span>
    </span>
  );
}

/** A grade as a chip, coloured by its verdict; the reason shows on hover. */
function GradeChip({ grade }: { grade: Grade }) {
  return (
    <Badge
      variant="outline"
      title={grade.reason}
      data-passed={grade.passed}
      className={cn(
        'tabular-nums',
        grade.passed
          ? 'border-emerald-500/25 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400'
          : 'border-red-500/25 bg-red-500/10 text-red-700 dark:text-red-400',
      )}
    >
      {gradeLabel(grade)}
      <span className="sr-only">{grade.passed ? ' passed' : ' failed'}</span>
    </Badge>
  );
}

function Muted({ text }: { text: string }) {
  return text ? <>{text}</> : <span className="text-muted-foreground">—</span>;
}

function FullValue({ label, value }: { label: string; value: unknown }) {
  const text = valueText(value);
  return (
    <div className="min-w-0 space-y-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <pre className="max-h-64 overflow-auto rounded-md bg-muted/60 p-2 font-sans text-sm break-words whitespace-pre-wrap">
        {text || '—'}
      </pre>
    </div>
  );
}

function ItemRow({ item, index, running }: { item: EvalItemResult; index: number; running: boolean }) {
  const [open, setOpen] = useState(false);
  const state = itemState(item, running);
  const detailsId = `eval-item-${index}-details`;
  return (
    <Fragment>
      <tr className="border-t" data-testid="eval-item-row" data-state={state}>
        <td className={cn(td, 'w-0 pl-3 sm:pl-4')}>
          <div className="flex items-center gap-1">
            <button
              type="button"
              className="rounded text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-expanded={open}
              aria-controls={detailsId}
              aria-label={open ? 'Hide details' : 'Show details'}
              onClick={() => setOpen((value) => !value)}
            >
              {open ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
            </button>
            <ItemStateIcon state={state} />
          </div>
        </td>
        <td className={cn(td, 'max-w-48 min-w-24 sm:min-w-32')}>
          <span className="line-clamp-2 break-words">
            <Muted text={shortText(item.input)} />
          </span>
        </td>
        <td className={cn(td, 'max-w-64 min-w-32 pr-3 sm:min-w-40 sm:pr-3')}>
          <span className="line-clamp-2 break-words">
            <Muted text={shortText(item.output)} />
          </span>
          {item.error && (
            <p className="mt-1 text-xs break-words text-red-700 dark:text-red-400" role="note">
              {item.error}
            </p>
          )}
          {/* A phone has no Grades column: the grades go under the answer. */}
          {item.grades.length > 0 && (
            <div className="mt-1.5 flex flex-wrap gap-1 sm:hidden">
              {item.grades.map((grade, gradeIndex) => (
                <GradeChip key={`${gradeIndex}:${grade.name}`} grade={grade} />
              ))}
            </div>
          )}
        </td>
        <td className={cn(td, 'hidden max-w-48 md:table-cell')}>
          <span className="line-clamp-2 break-words">
            <Muted text={shortText(item.expected)} />
          </span>
        </td>
        <td className={cn(td, 'hidden min-w-36 sm:table-cell')}>
          <div className="flex flex-wrap gap-1">
            {item.grades.map((grade, gradeIndex) => (
              <GradeChip key={`${gradeIndex}:${grade.name}`} grade={grade} />
            ))}
          </div>
        </td>
        <td className={cn(td, 'hidden text-right whitespace-nowrap tabular-nums sm:table-cell')}>
          {item.costUsd === null ? '—' : formatCost(item.costUsd)}
        </td>
        <td className={cn(td, 'hidden text-right whitespace-nowrap tabular-nums sm:table-cell')}>
          {(item.durationMs === null ? null : formatMilliseconds(item.durationMs)) ?? '—'}
        </td>
        <td className={cn(td, 'hidden pr-3 text-right sm:table-cell sm:pr-4')}>
          {item.executionId && (
            <Link
              to={runDetailsPath(item.executionId)}
              className="text-primary underline-offset-4 hover:underline"
            >
              Run
            </Link>
          )}
        </td>
      </tr>
      {open && (
        <tr id={detailsId} className="bg-muted/30">
          <td colSpan={8} className="px-3 py-3 sm:px-4">
            <div className="grid gap-3 md:grid-cols-3">
              <FullValue label="Input" value={item.input} />
              <FullValue label="Output" value={item.output} />
              <FullValue label="Expected" value={item.expected} />
            </div>
            {item.grades.length > 0 && (
              <ul className="mt-3 space-y-2" aria-label="Grades">
                {item.grades.map((grade, gradeIndex) => (
                  <li
                    key={`${gradeIndex}:${grade.name}`}
                    className="flex flex-wrap items-start gap-2 text-sm"
                  >
                    <GradeChip grade={grade} />
                    <span className="min-w-0 flex-1 break-words text-muted-foreground">{grade.reason}</span>
                  </li>
                ))}
              </ul>
            )}
            {/* A phone has no Cost, Time and Run columns: they are here. */}
            <p className="mt-3 text-xs text-muted-foreground sm:hidden">
              Cost {item.costUsd === null ? '—' : formatCost(item.costUsd)} · Time{' '}
              {(item.durationMs === null ? null : formatMilliseconds(item.durationMs)) ?? '—'}
              {item.executionId && (
                <>
                  {' · '}
                  <Link
                    to={runDetailsPath(item.executionId)}
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    Run
                  </Link>
                </>
              )}
            </p>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** `running`: the eval run still runs, so an item without a verdict is still to come. */
export function EvalItemsTable({ items, running = false }: { items: EvalItemResult[]; running?: boolean }) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <table className="w-full text-sm" aria-label="Items">
        <thead>
          <tr>
            <th scope="col" className={cn(th, 'pl-3 sm:pl-4')}>
              <span className="sr-only">Result</span>
            </th>
            <th scope="col" className={th}>
              Input
            </th>
            <th scope="col" className={th}>
              Output
            </th>
            <th scope="col" className={cn(th, 'hidden md:table-cell')}>
              Expected
            </th>
            <th scope="col" className={cn(th, 'hidden sm:table-cell')}>
              Grades
            </th>
            <th scope="col" className={cn(th, 'hidden text-right sm:table-cell')}>
              Cost
            </th>
            <th scope="col" className={cn(th, 'hidden text-right sm:table-cell')}>
              Time
            </th>
            <th scope="col" className={cn(th, 'hidden pr-3 sm:table-cell sm:pr-4')}>
              <span className="sr-only">Run</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <ItemRow key={item.itemId} item={item} index={index} running={running} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
