import type { Usage } from '@crewline/contracts';
import { TriangleAlert } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';
import { Spinner } from '@/components/spinner';
import { cn } from '@/lib/utils';

import { usageLines, type UsageThing } from './usage-summary';

type DeleteWithUsageProps = {
  title: string;
  description: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: () => void;
  thing: UsageThing;
  /** The query key of its GET …/:id/usage (queryKeys), read each time the dialog opens. */
  usageKey: readonly unknown[];
};

/** What uses the thing, as read for the delete dialog: checking, the lines, or that it could not tell. */
export function UsageNotice({
  usage,
  thing,
  failed = false,
}: {
  usage: Usage | undefined;
  thing: UsageThing;
  failed?: boolean;
}) {
  if (failed) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="delete-usage">
        Could not check what uses this {thing}.
      </p>
    );
  }
  if (!usage) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="delete-usage">
        <Spinner />
        Checking what uses this {thing}...
      </p>
    );
  }
  const used = usage.workflows.length + usage.agents.length + (usage.tools?.length ?? 0) > 0;
  return (
    <div
      data-testid="delete-usage"
      data-used={used}
      className={cn(
        'flex gap-2 rounded-md border p-3 text-sm break-words',
        used
          ? 'border-amber-500/40 bg-amber-500/10 text-amber-900 dark:text-amber-200'
          : 'text-muted-foreground',
      )}
    >
      {used && <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
      <div className="min-w-0 space-y-1">
        {usageLines(usage, thing).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </div>
  );
}

/**
 * The delete confirmation of agents, tools and knowledge bases: it reads what uses the thing first
 * and lists it, so the user knows what stops working; Delete waits for that answer (or its failure).
 */
export function DeleteWithUsageDialog({ thing, usageKey, ...dialog }: DeleteWithUsageProps) {
  const usage = useQuery<Usage>({
    queryKey: usageKey,
    enabled: dialog.open,
    // Read afresh on every opening: a workflow may have started using it since.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  return (
    <ConfirmDeleteDialog {...dialog} confirmDisabled={usage.isPending && usage.fetchStatus !== 'idle'}>
      <UsageNotice usage={usage.data} thing={thing} failed={usage.isError} />
    </ConfirmDeleteDialog>
  );
}
