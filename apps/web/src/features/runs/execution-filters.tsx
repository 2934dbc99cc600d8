import {
  executionStatusValues,
  executionTriggerLabels,
  executionTriggerValues,
  type Workflow,
} from '@crewline/contracts';
import { RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';

import { DayInput } from '@/components/day-input';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import {
  EXECUTION_STATUS_LABELS,
  hasExecutionFilters,
  NO_EXECUTION_FILTERS,
  type ExecutionFilters,
} from './execution-filter-params';

const ALL = 'all';

function FilterSelect({
  label,
  prefix,
  value,
  onChange,
  className,
  children,
}: {
  label: string;
  prefix: string;
  value: string | null;
  onChange: (value: string | null) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? null : next)}>
      <SelectTrigger aria-label={label} className={className}>
        <span className="flex min-w-0 items-center gap-1.5">
          <span className="text-muted-foreground">{prefix}</span>
          <span className="min-w-0 truncate">
            <SelectValue />
          </span>
        </span>
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All</SelectItem>
        {children}
      </SelectContent>
    </Select>
  );
}

/** An item for each value, shown by its label. */
function LabelledItems<V extends string>({
  values,
  labels,
}: {
  values: readonly V[];
  labels: Record<V, string>;
}) {
  return values.map((value) => (
    <SelectItem key={value} value={value}>
      {labels[value]}
    </SelectItem>
  ));
}

/**
 * The Executions tab's filters (docs/product-rules.md, Run list filters): workflow, status, trigger
 * and a From–To range of days; Reset Filters clears them all. The page keeps them in its address.
 */
export function ExecutionFiltersBar({
  filters,
  workflows,
  onChange,
}: {
  filters: ExecutionFilters;
  workflows: Workflow[] | undefined;
  onChange: (filters: ExecutionFilters) => void;
}) {
  const set =
    <K extends keyof ExecutionFilters>(key: K) =>
    (value: string | null) =>
      onChange({ ...filters, [key]: value });
  // A linked workflow not in the list (deleted, or not loaded yet) is still shown as selected.
  const known = !filters.workflowId || workflows?.some((w) => w.id === filters.workflowId);
  return (
    <div
      role="search"
      aria-label="Filter executions"
      className="grid grid-cols-2 gap-3 rounded-xl border bg-card p-3 shadow-xs lg:flex lg:flex-wrap lg:items-center"
    >
      <FilterSelect
        label="Filter by workflow"
        prefix="Workflow:"
        value={filters.workflowId}
        onChange={set('workflowId')}
        className="col-span-2 w-full lg:w-60"
      >
        {!known && filters.workflowId && (
          <SelectItem value={filters.workflowId}>{workflows ? 'Deleted workflow' : 'Loading...'}</SelectItem>
        )}
        {workflows?.map((workflow) => (
          <SelectItem key={workflow.id} value={workflow.id}>
            {workflow.name}
          </SelectItem>
        ))}
      </FilterSelect>
      <FilterSelect
        label="Filter by status"
        prefix="Status:"
        value={filters.status}
        onChange={set('status')}
        className="w-full lg:w-44"
      >
        <LabelledItems values={executionStatusValues} labels={EXECUTION_STATUS_LABELS} />
      </FilterSelect>
      <FilterSelect
        label="Filter by trigger"
        prefix="Trigger:"
        value={filters.trigger}
        onChange={set('trigger')}
        className="w-full lg:w-44"
      >
        <LabelledItems values={executionTriggerValues} labels={executionTriggerLabels} />
      </FilterSelect>
      <DayInput label="From" value={filters.from} onChange={set('from')} />
      <DayInput label="To" value={filters.to} onChange={set('to')} />
      <Button
        type="button"
        variant="ghost"
        className="col-span-2 lg:col-span-1"
        onClick={() => onChange(NO_EXECUTION_FILTERS)}
        disabled={!hasExecutionFilters(filters)}
      >
        <RotateCcw aria-hidden="true" />
        Reset Filters
      </Button>
    </div>
  );
}
