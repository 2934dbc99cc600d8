import type { KnowledgeBase } from '@crewline/contracts';
import { BookOpenText, EllipsisVertical, Pencil, Trash } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { formatRelativeTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { countLabel, embeddingProviderLabel, knowledgeBasePath } from '../knowledge-display';
import { formatBytes } from '../knowledge-files';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/** One knowledge base of the grid: its name opens it; ⋮ has Rename and Delete. */
export function KnowledgeBaseCard({
  base,
  onRename,
  onDelete,
}: {
  base: KnowledgeBase;
  onRename: (base: KnowledgeBase) => void;
  onDelete: (base: KnowledgeBase) => void;
}) {
  const titleId = useId();
  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      data-testid="knowledge-base-card"
      className="relative h-full gap-0 py-0 transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md"
    >
      <div className="flex items-start gap-3 px-5 pt-5">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-teal-500/10 text-teal-600 dark:text-teal-400">
          <BookOpenText className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate leading-tight font-semibold" title={base.name}>
            {/* The whole card is the link's target area; the menu sits above it. */}
            <Link
              to={knowledgeBasePath(base.id)}
              className="rounded-sm after:absolute after:inset-0 after:content-[''] focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              {base.name}
            </Link>
          </h3>
          <p className="mt-1 truncate text-sm text-muted-foreground">
            {countLabel(base.documentCount, 'document')} · {formatBytes(base.sizeBytes)}
          </p>
        </div>
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="relative z-10 -mt-1 -mr-2 size-8"
              aria-label={`Actions for ${base.name}`}
            >
              <EllipsisVertical aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-48">
            <DropdownMenuItem onSelect={() => onRename(base)}>
              <Pencil aria-hidden="true" />
              Rename
            </DropdownMenuItem>
            <DropdownMenuItem variant="destructive" onSelect={() => onDelete(base)}>
              <Trash aria-hidden="true" />
              Delete Knowledge Base
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>

      <div className="flex flex-1 flex-col gap-4 px-5 py-4">
        <p
          className={cn(
            'line-clamp-2 min-h-10 text-sm',
            base.description ? 'text-foreground/80' : 'text-muted-foreground italic',
          )}
        >
          {base.description || 'No description'}
        </p>
        <dl className="grid grid-cols-3 gap-3 rounded-lg border bg-muted/30 p-3 text-sm">
          <Figure label="Documents">{base.documentCount.toLocaleString()}</Figure>
          <Figure label="Chunks">{base.chunkCount.toLocaleString()}</Figure>
          <Figure label="Size">{formatBytes(base.sizeBytes)}</Figure>
        </dl>
      </div>

      <div className="flex items-center justify-between gap-2 border-t px-5 py-3 text-xs text-muted-foreground">
        <span className="flex min-w-0 items-center gap-2">
          <Badge variant="secondary">{embeddingProviderLabel(base.embeddingProvider)}</Badge>
          <span className="truncate font-mono" title={base.embeddingModel}>
            {base.embeddingModel}
          </span>
        </span>
        <span className="shrink-0">Updated {formatRelativeTime(base.updatedAt)}</span>
      </div>
    </Card>
  );
}

export function KnowledgeBaseCardSkeleton() {
  return (
    <Card className="h-full gap-0 py-0" data-testid="knowledge-base-skeleton">
      <div className="flex items-start gap-3 px-5 pt-5">
        <Skeleton className="size-10 rounded-lg" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-1/3" />
        </div>
      </div>
      <div className="space-y-4 px-5 py-4">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-16 w-full rounded-lg" />
      </div>
      <div className="border-t px-5 py-3">
        <Skeleton className="h-5 w-1/2" />
      </div>
    </Card>
  );
}
