// The versions of a workflow, newest first: number, when (relative, the exact time on hover), who,
// and the note; the newest is marked Current.
import type { WorkflowVersionSummary } from '@crewline/contracts';
import { ChevronRight } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';

import { versionAuthor } from './history-texts';

/** The newest version: what an active workflow runs. */
export function CurrentBadge() {
  return (
    <Badge
      variant="outline"
      className="border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300"
    >
      Current
    </Badge>
  );
}

export function VersionList({
  versions,
  selected,
  onSelect,
}: {
  versions: WorkflowVersionSummary[];
  selected: number | null;
  onSelect: (version: number) => void;
}) {
  // Keeps "5 minutes ago" true while the panel stays open.
  const now = useNow(true, 60_000);
  return (
    <ol className="space-y-2" aria-label="Versions">
      {versions.map((v, index) => {
        const isSelected = v.version === selected;
        return (
          <li key={v.version}>
            <button
              type="button"
              onClick={() => onSelect(v.version)}
              aria-current={isSelected ? 'true' : undefined}
              aria-label={`Version ${v.version}${index === 0 ? ', current' : ''}${v.note ? `: ${v.note}` : ''}`}
              className={cn(
                'group flex w-full items-start gap-2 rounded-lg border bg-card p-3 text-left transition-colors hover:bg-muted/60 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
                isSelected && 'border-primary/60 bg-primary/5 hover:bg-primary/10',
              )}
            >
              <span className="min-w-0 flex-1 space-y-1">
                <span className="flex items-center gap-2">
                  <span className="font-semibold tabular-nums">v{v.version}</span>
                  {index === 0 && <CurrentBadge />}
                </span>
                <span className="block text-xs text-muted-foreground">
                  <time dateTime={v.createdAt} title={formatDateTime(v.createdAt)}>
                    {formatRelativeTime(v.createdAt, now)}
                  </time>
                  {' · '}
                  {versionAuthor(v)}
                </span>
                {v.note ? (
                  <span className="line-clamp-2 block text-sm break-words">{v.note}</span>
                ) : (
                  <span className="block text-xs text-muted-foreground italic">No note</span>
                )}
              </span>
              <ChevronRight
                className="mt-0.5 size-4 shrink-0 text-muted-foreground md:hidden"
                aria-hidden="true"
              />
            </button>
          </li>
        );
      })}
    </ol>
  );
}
