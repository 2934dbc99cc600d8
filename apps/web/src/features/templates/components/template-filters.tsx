import type { TemplateSort } from '@crewline/contracts';

import { FilterBar } from '@/components/filter-bar';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

import {
  ALL_CATEGORIES,
  DEFAULT_TEMPLATE_FILTERS,
  hasActiveFilters,
  SORT_OPTIONS,
  type TemplateFilters,
} from '../template-library';

/** Search (name, description, tags), the sort the server applies, and Reset Filters. */
export function TemplateFiltersBar({
  filters,
  onChange,
}: {
  filters: TemplateFilters;
  onChange: (filters: TemplateFilters) => void;
}) {
  return (
    <FilterBar
      label="Filter templates"
      searchLabel="Search templates"
      searchPlaceholder="Search by name, description or tag..."
      search={filters.search}
      onSearchChange={(search) => onChange({ ...filters, search })}
      canReset={hasActiveFilters(filters)}
      onReset={() => onChange(DEFAULT_TEMPLATE_FILTERS)}
      className="sm:flex-row sm:items-center"
    >
      <Select
        value={filters.sort}
        onValueChange={(sort) => onChange({ ...filters, sort: sort as TemplateSort })}
      >
        <SelectTrigger aria-label="Sort templates" className="col-span-2 w-full sm:col-span-1 sm:w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {SORT_OPTIONS.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FilterBar>
  );
}

/** 'All' and one chip per category; on a phone the row scrolls sideways. */
export function CategoryChips({
  categories,
  value,
  onChange,
}: {
  categories: readonly string[];
  value: string;
  onChange: (category: string) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Categories"
      className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-0.5 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 [&::-webkit-scrollbar]:hidden"
    >
      {[ALL_CATEGORIES, ...categories].map((category) => {
        const selected = value === category;
        return (
          <button
            key={category}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(category)}
            className={cn(
              'h-8 shrink-0 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              selected
                ? 'border-primary bg-primary text-primary-foreground shadow-xs'
                : 'bg-card text-muted-foreground hover:bg-accent hover:text-accent-foreground',
            )}
          >
            {category === ALL_CATEGORIES ? 'All' : category}
          </button>
        );
      })}
    </div>
  );
}
