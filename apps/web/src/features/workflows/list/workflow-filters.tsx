import { FilterBar } from '@/components/filter-bar';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { capitalize } from '@/lib/format';

import {
  DEFAULT_WORKFLOW_FILTERS,
  hasActiveFilters,
  PROCESS_TYPE_OPTIONS,
  WORKFLOW_STATUS_OPTIONS,
  type WorkflowFilters,
} from './workflow-list-filters';

/** Search by name or description, Status, Process Type and Reset Filters (docs/product-rules.md). */
export function WorkflowFiltersBar({
  filters,
  onChange,
}: {
  filters: WorkflowFilters;
  onChange: (filters: WorkflowFilters) => void;
}) {
  return (
    <FilterBar
      label="Filter workflows"
      searchLabel="Search workflows"
      searchPlaceholder="Search by name or description..."
      search={filters.search}
      onSearchChange={(search) => onChange({ ...filters, search })}
      canReset={hasActiveFilters(filters)}
      onReset={() => onChange(DEFAULT_WORKFLOW_FILTERS)}
      className="lg:flex-row lg:items-center"
    >
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
    </FilterBar>
  );
}
