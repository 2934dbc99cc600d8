// The Steps tab's palette: the node kinds a workflow adds besides its agents (the contracts'
// node-kinds, with their help line), each with its icon. A click adds the step in the middle of the canvas; a
// drag drops it where it is let go (builder-canvas.tsx). Kinds only sequential workflows may use are
// disabled in the others, saying why.
import { nodeKindList } from '@crewline/contracts';
import { useStoreApi } from '@xyflow/react';
import { Plus } from 'lucide-react';
import type { DragEvent } from 'react';

import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';

import { placeNear, unmeasuredSize, type PaletteKind } from '../builder-nodes';
import { PALETTE_KIND_TYPE } from '../canvas/drag-types';
import { builderNodeKinds } from '../node-kinds';
import { useBuilderStore } from '../store';
import { PROCESS_TYPE_LABELS } from '../types';

const PALETTE_KINDS = nodeKindList.filter(
  (k): k is Extract<(typeof nodeKindList)[number], { kind: PaletteKind }> =>
    k.kind !== 'start' && k.kind !== 'end' && k.kind !== 'agent',
);

function PaletteItem({
  kind,
  disabledReason,
}: {
  kind: (typeof PALETTE_KINDS)[number];
  disabledReason: string | null;
}) {
  const addKindNode = useBuilderStore((s) => s.addKindNode);
  const flow = useStoreApi();
  const { Icon, accent } = builderNodeKinds[kind.kind];
  const disabled = disabledReason !== null;

  const onClick = () => {
    // The middle of what the canvas shows, in its coordinates.
    const { width, height, transform } = flow.getState();
    const [tx, ty, zoom] = transform;
    const centre = { x: (width / 2 - tx) / zoom, y: (height / 2 - ty) / zoom };
    const { nodes } = useBuilderStore.getState();
    addKindNode(kind.kind, placeNear(nodes, centre, unmeasuredSize({ type: kind.kind })));
  };
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(PALETTE_KIND_TYPE, kind.kind);
    event.dataTransfer.effectAllowed = 'copy';
  };

  const button = (
    <button
      type="button"
      aria-label={`Add ${kind.label}`}
      aria-disabled={disabled || undefined}
      draggable={!disabled}
      onClick={disabled ? undefined : onClick}
      onDragStart={onDragStart}
      className={cn(
        'group flex w-full items-start gap-3 rounded-lg border bg-card p-2.5 text-left transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
        disabled
          ? 'cursor-not-allowed opacity-55'
          : 'cursor-grab hover:border-primary/40 hover:bg-accent active:cursor-grabbing',
      )}
    >
      <span
        className="grid size-8 shrink-0 place-items-center rounded-md text-white"
        style={{ backgroundColor: accent }}
      >
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium">{kind.label}</span>
        <span className="block text-xs text-muted-foreground">{kind.help}</span>
      </span>
      {!disabled && (
        <Plus
          className="mt-2 size-4 shrink-0 text-muted-foreground transition-colors group-hover:text-primary"
          aria-hidden="true"
        />
      )}
    </button>
  );
  if (!disabled) return <li>{button}</li>;
  return (
    <li>
      <Tooltip>
        <TooltipTrigger asChild>{button}</TooltipTrigger>
        <TooltipContent side="right" className="max-w-60">
          {disabledReason}
        </TooltipContent>
      </Tooltip>
      <span className="sr-only">{disabledReason}</span>
    </li>
  );
}

export function StepsPalette() {
  const processType = useBuilderStore((s) => s.settings.processType);
  return (
    <div className="space-y-2.5">
      <p className="text-xs text-muted-foreground">
        Click a step to add it in the middle of the canvas, or drag it where it goes. Agents are in the Agents
        tab.
      </p>
      <ul className="space-y-1.5" aria-label="Steps">
        {PALETTE_KINDS.map((kind) => (
          <PaletteItem
            key={kind.kind}
            kind={kind}
            disabledReason={
              kind.sequentialOnly && processType !== 'sequential'
                ? `${kind.label} steps work only in sequential workflows; this one is ${PROCESS_TYPE_LABELS[processType]}. Change it in Settings.`
                : null
            }
          />
        ))}
      </ul>
    </div>
  );
}
