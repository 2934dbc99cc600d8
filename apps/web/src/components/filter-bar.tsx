import { RotateCcw, Search } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * A list page's filter bar: a search box, the page's own filters (`children`) and Reset Filters,
 * which is enabled only while some filter differs from its default.
 */
export function FilterBar({
  label,
  searchLabel,
  searchPlaceholder,
  search,
  onSearchChange,
  canReset,
  onReset,
  className,
  children,
}: {
  /** The search landmark's name, e.g. 'Filter agents'. */
  label: string;
  searchLabel: string;
  searchPlaceholder: string;
  search: string;
  onSearchChange: (search: string) => void;
  canReset: boolean;
  onReset: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="search"
      aria-label={label}
      className={cn('flex flex-col gap-3 rounded-xl border bg-card p-3 shadow-xs', className)}
    >
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label={searchLabel}
          placeholder={searchPlaceholder}
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          className="pl-9"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:items-center">
        {children}
        <Button
          type="button"
          variant="ghost"
          className="col-span-2 sm:col-span-1"
          onClick={onReset}
          disabled={!canReset}
        >
          <RotateCcw aria-hidden="true" />
          Reset Filters
        </Button>
      </div>
    </div>
  );
}
