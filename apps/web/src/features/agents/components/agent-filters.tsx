import { FilterBar } from '@/components/filter-bar';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import {
  AGENT_PROVIDER_OPTIONS,
  AGENT_STATUS_OPTIONS,
  DEFAULT_AGENT_FILTERS,
  hasActiveFilters,
  providerLabel,
  type AgentFilters,
} from '../agent-display';
import { ProviderIcon } from './provider-icon';

const STATUS_LABELS: Record<AgentFilters['status'], string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
  busy: 'Busy',
  error: 'Error',
};

/** Search by name or role, status, provider, and Reset Filters. */
export function AgentFiltersBar({
  filters,
  onChange,
}: {
  filters: AgentFilters;
  onChange: (filters: AgentFilters) => void;
}) {
  return (
    <FilterBar
      label="Filter agents"
      searchLabel="Search agents"
      searchPlaceholder="Search by name or role..."
      search={filters.search}
      onSearchChange={(search) => onChange({ ...filters, search })}
      canReset={hasActiveFilters(filters)}
      onReset={() => onChange(DEFAULT_AGENT_FILTERS)}
      className="sm:flex-row sm:items-center"
    >
      <Select
        value={filters.status}
        onValueChange={(status) => onChange({ ...filters, status: status as AgentFilters['status'] })}
      >
        <SelectTrigger aria-label="Filter by status" className="w-full sm:w-40">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(['all', ...AGENT_STATUS_OPTIONS] as const).map((option) => (
            <SelectItem key={option} value={option}>
              {STATUS_LABELS[option]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={filters.provider}
        onValueChange={(provider) => onChange({ ...filters, provider: provider as AgentFilters['provider'] })}
      >
        <SelectTrigger aria-label="Filter by provider" className="w-full sm:w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">All providers</SelectItem>
          {AGENT_PROVIDER_OPTIONS.map((option) => (
            <SelectItem key={option} value={option}>
              <ProviderIcon provider={option} className="size-5" />
              {providerLabel(option)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FilterBar>
  );
}
