// The card the step kinds without an agent share on the canvas (condition, transform, merge): the
// kind's icon and colour, the node's label, its live run mark, a target handle on the left and, unless
// the kind draws its own (a condition's branches), one source handle on the right.
import { nodeKinds, type NodeKind } from '@crewline/contracts';
import { Handle, Position } from '@xyflow/react';
import type { LucideIcon } from 'lucide-react';
import type { CSSProperties, ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { RunBadge, RUN_RING, SKIPPED_LOOK, SkippedBadge } from '../components/run-badge';
import { useNodeRunState, useNodeSkipped } from '../run-progress';
import { handleClass } from './handle';

export function KindCard({
  id,
  kind,
  label,
  Icon,
  accent,
  selected,
  sourceHandle = true,
  className,
  children,
}: {
  id: string;
  kind: NodeKind;
  label: string;
  Icon: LucideIcon;
  accent: string;
  selected: boolean | undefined;
  /** One source handle on the right; false when the kind draws its own. */
  sourceHandle?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  // Live progress lives outside the node data (run-progress.ts): it never makes the workflow dirty.
  const run = useNodeRunState(id);
  const skipped = useNodeSkipped(id) && !run;
  const kindLabel = nodeKinds[kind].label;
  return (
    <div
      data-testid={`node-${id}`}
      data-run-status={run?.status ?? (skipped ? 'skipped' : undefined)}
      style={{ '--node-accent': accent } as CSSProperties}
      className={cn(
        'relative rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md',
        selected && 'border-[var(--node-accent)] ring-2 ring-[var(--node-accent)]/30',
        run && RUN_RING[run.status],
        skipped && SKIPPED_LOOK,
        className,
      )}
    >
      {run && <RunBadge run={run} />}
      {skipped && <SkippedBadge />}
      <Handle type="target" position={Position.Left} className={handleClass} />
      <div className="flex items-center gap-2.5 px-3 py-2.5">
        <span
          className="grid size-8 shrink-0 place-items-center rounded-lg text-white"
          style={{ backgroundColor: accent }}
        >
          <Icon className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="truncate text-sm leading-tight font-semibold" title={label}>
            {label || kindLabel}
          </div>
          {/* The kind under a label of the user's own (not twice 'Transform'). */}
          {label && label !== kindLabel && (
            <div className="truncate text-xs text-muted-foreground">{kindLabel}</div>
          )}
        </div>
      </div>
      {children}
      {sourceHandle && <Handle type="source" position={Position.Right} className={handleClass} />}
    </div>
  );
}
