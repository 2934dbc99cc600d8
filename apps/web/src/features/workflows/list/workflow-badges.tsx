import {
  CircleAlert,
  CircleCheck,
  CircleDashed,
  CirclePause,
  CirclePlay,
  GitFork,
  ListOrdered,
  Network,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';
import { cn } from '@/lib/utils';

const STATUS_STYLE: Record<string, { icon: LucideIcon; className: string }> = {
  draft: { icon: CircleDashed, className: 'border-border bg-muted text-muted-foreground' },
  active: {
    icon: CirclePlay,
    className: 'border-emerald-500/25 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400',
  },
  paused: {
    icon: CirclePause,
    className: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  },
  completed: {
    icon: CircleCheck,
    className: 'border-blue-500/25 bg-blue-500/10 text-blue-700 dark:text-blue-400',
  },
  failed: { icon: CircleAlert, className: 'border-red-500/25 bg-red-500/10 text-red-700 dark:text-red-400' },
};

/** The workflow status pill with its icon. */
export function WorkflowStatusBadge({ status, className }: { status: string; className?: string }) {
  const style = STATUS_STYLE[status] ?? STATUS_STYLE.draft;
  const Icon = style.icon;
  return (
    <Badge
      variant="outline"
      className={cn(style.className, className)}
      data-testid="workflow-status"
      data-status={status}
    >
      <Icon aria-hidden="true" />
      {capitalize(status) || 'Unknown'}
    </Badge>
  );
}

/**
 * A workflow with a step on a deleted agent (the list's `needsAttention`): it stays active, and the
 * title says which steps (the server's `problems`).
 */
export function NeedsAttentionBadge({ problems }: { problems: string[] }) {
  return (
    <Badge
      variant="outline"
      className="border-red-500/25 bg-red-500/10 text-red-700 dark:text-red-400"
      data-testid="workflow-needs-attention"
      title={problems.join('\n') || 'Uses a deleted agent'}
    >
      <TriangleAlert aria-hidden="true" />
      Needs attention
    </Badge>
  );
}

const PROCESS_ICON: Record<string, LucideIcon> = {
  sequential: ListOrdered,
  hierarchical: Network,
  parallel: GitFork,
};

/** Sequential, Hierarchical or Parallel. */
export function ProcessTypeBadge({ processType }: { processType: string }) {
  const Icon = PROCESS_ICON[processType] ?? ListOrdered;
  return (
    <Badge variant="secondary" className="font-normal" data-testid="workflow-process-type">
      <Icon aria-hidden="true" />
      {capitalize(processType) || 'Unknown'}
    </Badge>
  );
}
