import { RotateCcw, Search } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
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

/** Search by name or role, status, provider, and Reset Filters (spec part 2 §2). */
export function AgentFiltersBar({
  filters,
  onChange,
}: {
  filters: AgentFilters;
  onChange: (filters: AgentFilters) => void;
}) {
  return (
    <div
      role="search"
      aria-label="Filter agents"
      className="flex flex-col gap-3 rounded-xl border bg-card p-3 shadow-xs sm:flex-row sm:items-center"
    >
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label="Search agents"
          placeholder="Search by name or role..."
          value={filters.search}
          onChange={(event) => onChange({ ...filters, search: event.target.value })}
          className="pl-9"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:items-center">
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
          onValueChange={(provider) =>
            onChange({ ...filters, provider: provider as AgentFilters['provider'] })
          }
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
        <Button
          type="button"
          variant="ghost"
          className="col-span-2 sm:col-span-1"
          onClick={() => onChange(DEFAULT_AGENT_FILTERS)}
          disabled={!hasActiveFilters(filters)}
        >
          <RotateCcw aria-hidden="true" />
          Reset Filters
        </Button>
      </div>
    </div>
  );
}
