import { RotateCcw, Search } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import {
  DEFAULT_WORKFLOW_FILTERS,
  hasActiveFilters,
  PROCESS_TYPE_OPTIONS,
  WORKFLOW_STATUS_OPTIONS,
  capitalize,
  type WorkflowFilters,
} from './workflow-list-logic';

/** Search by name or description, Status, Process Type and Reset Filters (spec part 1 §2, §5). */
export function WorkflowFiltersBar({
  filters,
  onChange,
}: {
  filters: WorkflowFilters;
  onChange: (filters: WorkflowFilters) => void;
}) {
  return (
    <div
      role="search"
      aria-label="Filter workflows"
      className="flex flex-col gap-3 rounded-xl border bg-card p-3 shadow-xs lg:flex-row lg:items-center"
    >
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label="Search workflows"
          placeholder="Search by name or description..."
          value={filters.search}
          onChange={(event) => onChange({ ...filters, search: event.target.value })}
          className="pl-9"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:items-center">
        <Select
          value={filters.status}
          onValueChange={(status) => onChange({ ...filters, status: status as WorkflowFilters['status'] })}
        >
          <SelectTrigger aria-label="Filter by status" className="w-full sm:w-44">
            <span className="flex min-w-0 items-center gap-1.5">
              <span className="text-muted-foreground">Status:</span>
              <SelectValue />
            </span>
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All</SelectItem>
            {WORKFLOW_STATUS_OPTIONS.map((option) => (
              <SelectItem key={option} value={option}>
                {capitalize(option)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select
          value={filters.processType}
          onValueChange={(processType) =>
            onChange({ ...filters, processType: processType as WorkflowFilters['processType'] })
          }
        >
          <SelectTrigger aria-label="Filter by process type" className="w-full sm:w-52">
            <span className="flex min-w-0 items-center gap-1.5">
              <span className="text-muted-foreground">Process:</span>
              <SelectValue />
            </span>
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All</SelectItem>
            {PROCESS_TYPE_OPTIONS.map((option) => (
              <SelectItem key={option} value={option}>
                {capitalize(option)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button
          type="button"
          variant="ghost"
          className="col-span-2 sm:col-span-1"
          onClick={() => onChange(DEFAULT_WORKFLOW_FILTERS)}
          disabled={!hasActiveFilters(filters)}
        >
          <RotateCcw aria-hidden="true" />
          Reset Filters
        </Button>
      </div>
    </div>
  );
}
