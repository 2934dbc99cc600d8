import { FilterBar } from '@/components/filter-bar';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import {
  DEFAULT_KNOWLEDGE_FILTERS,
  EMBEDDING_PROVIDERS,
  embeddingProviderLabel,
  hasActiveKnowledgeFilters,
  type KnowledgeFilters,
} from '../knowledge-display';

/** Search by name, description or model, the embedding connection, and Reset Filters. */
export function KnowledgeFiltersBar({
  filters,
  onChange,
}: {
  filters: KnowledgeFilters;
  onChange: (filters: KnowledgeFilters) => void;
}) {
  return (
    <FilterBar
      label="Filter knowledge bases"
      searchLabel="Search knowledge bases"
      searchPlaceholder="Search by name, description or model..."
      search={filters.search}
      onSearchChange={(search) => onChange({ ...filters, search })}
      canReset={hasActiveKnowledgeFilters(filters)}
      onReset={() => onChange(DEFAULT_KNOWLEDGE_FILTERS)}
      className="sm:flex-row sm:items-center"
    >
      <Select
        value={filters.provider}
        onValueChange={(provider) =>
          onChange({ ...filters, provider: provider as KnowledgeFilters['provider'] })
        }
      >
        <SelectTrigger
          aria-label="Filter by embedding connection"
          className="col-span-2 w-full sm:col-span-1 sm:w-44"
        >
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">All connections</SelectItem>
          {EMBEDDING_PROVIDERS.map((provider) => (
            <SelectItem key={provider} value={provider}>
              {embeddingProviderLabel(provider)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FilterBar>
  );
}
