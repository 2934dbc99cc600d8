// The read-only graph's node components: the builder's look (features/workflows/builder/components/
// nodes.tsx) without its store, with each step's status in a run as a coloured ring and a labelled badge
// (a skipped step greyed), and the branch a condition took.
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import {
  Bot,
  Check,
  Circle,
  CircleSlash,
  CodeXml,
  Cpu,
  Flag,
  Hourglass,
  Layers,
  Merge,
  Play,
  Recycle,
  Repeat,
  Split,
  StickyNote,
  UserCheck,
  Variable,
  Wrench,
  X,
  type LucideIcon,
} from 'lucide-react';
import { memo, type CSSProperties } from 'react';

import { cn } from '@/lib/utils';

import { GRAPH_NODE_STATUS_LABELS, type GraphNode, type GraphNodeStatus } from './graph-elements';
import { ItemProgressLine, itemProgressText } from './item-progress';

// Edges attach to handles, so they stay; nothing can be connected here, so they are barely visible.
const handleClass = '!size-2 !min-w-0 !rounded-full !border-0 !bg-muted-foreground/50';

const STATUS_RING: Record<GraphNodeStatus, string> = {
  pending: 'border-dashed opacity-80',
  running: 'shadow-md shadow-blue-500/20 ring-2 ring-blue-500/70',
  waiting: 'ring-2 ring-violet-500/70',
  completed: 'ring-2 ring-emerald-500/60',
  failed: 'ring-2 ring-red-500/70',
  reused: 'ring-2 ring-violet-500/60',
  skipped: 'border-dashed opacity-55 grayscale',
};

const STATUS_BADGE: Record<GraphNodeStatus, string> = {
  pending: 'border-border bg-muted text-muted-foreground',
  running: 'border-blue-500/30 bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  waiting: 'border-violet-500/30 bg-violet-50 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  completed: 'border-emerald-500/30 bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  failed: 'border-red-500/30 bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
  reused: 'border-violet-500/30 bg-violet-50 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  skipped: 'border-dashed border-border bg-muted text-muted-foreground',
};

const STATUS_TITLE: Record<GraphNodeStatus, string> = {
  pending: 'This step did not run',
  running: 'Running now',
  waiting: 'The run waits here: for a decision, or until its time',
  completed: 'This step completed',
  failed: 'The run failed at this step',
  reused: 'Output reused from an earlier run, no model call',
  skipped: 'Skipped: its path was not taken, so it never ran',
};

function StatusIcon({ status }: { status: GraphNodeStatus }) {
  if (status === 'running') {
    return (
      <span className="relative flex size-1.5" aria-hidden="true">
        <span className="absolute inline-flex size-full rounded-full bg-blue-500 opacity-75 motion-safe:animate-ping" />
        <span className="relative inline-flex size-1.5 rounded-full bg-blue-500" />
      </span>
    );
  }
  const Icon =
    status === 'completed'
      ? Check
      : status === 'failed'
        ? X
        : status === 'reused'
          ? Recycle
          : status === 'waiting'
            ? Hourglass
            : status === 'skipped'
              ? CircleSlash
              : Circle;
  return <Icon className="size-3" aria-hidden="true" />;
}

function StatusBadge({ status }: { status: GraphNodeStatus }) {
  return (
    <span
      data-testid="graph-node-status"
      title={STATUS_TITLE[status]}
      className={cn(
        'absolute -top-2.5 right-3 flex items-center gap-1 rounded-full border px-2 py-0.5 text-[10px] leading-none font-semibold shadow-sm',
        STATUS_BADGE[status],
      )}
    >
      <StatusIcon status={status} />
      {GRAPH_NODE_STATUS_LABELS[status]}
    </span>
  );
}

function StartNodeComponent({ id, data }: NodeProps<GraphNode>) {
  return (
    <div
      data-testid={`graph-node-${id}`}
      className="flex min-w-28 items-center gap-2 rounded-full border-2 border-emerald-500/70 bg-card py-1.5 pr-4 pl-1.5 shadow-sm"
    >
      <span className="grid size-7 place-items-center rounded-full bg-emerald-500 text-white">
        <Play className="size-3.5 fill-current" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.title}</span>
      <Handle type="source" position={Position.Right} isConnectable={false} className={handleClass} />
    </div>
  );
}

function EndNodeComponent({ id, data }: NodeProps<GraphNode>) {
  return (
    <div
      data-testid={`graph-node-${id}`}
      className="flex min-w-28 items-center gap-2 rounded-full border-2 border-rose-500/70 bg-card py-1.5 pr-4 pl-1.5 shadow-sm"
    >
      <Handle type="target" position={Position.Left} isConnectable={false} className={handleClass} />
      <span className="grid size-7 place-items-center rounded-full bg-rose-500 text-white">
        <Flag className="size-3.5" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.title}</span>
    </div>
  );
}

function AgentNodeComponent({ id, data }: NodeProps<GraphNode>) {
  const { status } = data;
  return (
    <div
      data-testid={`graph-node-${id}`}
      data-status={status}
      aria-label={status ? `${data.title}: ${GRAPH_NODE_STATUS_LABELS[status]}` : data.title}
      style={{ '--node-accent': data.color } as CSSProperties}
      className={cn(
        'relative w-56 rounded-xl border bg-card text-card-foreground shadow-sm',
        status && STATUS_RING[status],
      )}
    >
      {status && <StatusBadge status={status} />}
      <Handle type="target" position={Position.Left} isConnectable={false} className={handleClass} />
      <div
        className="absolute inset-y-0 left-0 w-1 rounded-l-xl bg-[var(--node-accent)]"
        aria-hidden="true"
      />
      <div className="space-y-2 py-2.5 pr-3 pl-4">
        <div className="flex items-start gap-2.5">
          <span
            className="grid size-7 shrink-0 place-items-center rounded-lg text-white"
            style={{ backgroundColor: data.color }}
          >
            <Bot className="size-4" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <div className="truncate text-sm leading-tight font-semibold" title={data.title}>
              {data.title}
            </div>
            {data.subtitle && (
              <div className="truncate text-xs text-muted-foreground" title={data.subtitle}>
                {data.subtitle}
              </div>
            )}
            <div className="truncate text-xs text-muted-foreground" title={data.role}>
              {data.role || 'Agent'}
            </div>
          </div>
        </div>
        <div
          className="flex items-center gap-1 border-t pt-1.5 text-[11px] text-muted-foreground"
          title="Model"
        >
          <Cpu className="size-3 shrink-0" aria-hidden="true" />
          <span className="truncate font-mono">{data.model || 'default model'}</span>
        </div>
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} className={handleClass} />
    </div>
  );
}

type StepLookKind =
  'condition' | 'transform' | 'code' | 'merge' | 'tool' | 'map' | 'loop' | 'approval' | 'delay';

const STEP_LOOK: Record<StepLookKind, { icon: LucideIcon; tint: string }> = {
  condition: { icon: Split, tint: 'bg-amber-500' },
  transform: { icon: Variable, tint: 'bg-sky-600' },
  code: { icon: CodeXml, tint: 'bg-lime-600' },
  merge: { icon: Merge, tint: 'bg-teal-600' },
  tool: { icon: Wrench, tint: 'bg-sky-500' },
  map: { icon: Layers, tint: 'bg-pink-500' },
  loop: { icon: Repeat, tint: 'bg-orange-500' },
  approval: { icon: UserCheck, tint: 'bg-blue-600' },
  delay: { icon: Hourglass, tint: 'bg-slate-500' },
};

/**
 * The steps other than agents: their kind's icon and name, for a condition its paths and the one
 * taken, for a map its items done (`37/100`) and for a loop its pass.
 */
function StepNodeComponent({ id, type, data }: NodeProps<GraphNode>) {
  const { status, progress } = data;
  const look = STEP_LOOK[type as keyof typeof STEP_LOOK] ?? STEP_LOOK.transform;
  const Icon = look.icon;
  const branches = data.branches;
  const counted = progress && (type === 'map' || (type === 'loop' && progress.pass !== null));
  return (
    <div
      data-testid={`graph-node-${id}`}
      data-status={status}
      aria-label={[
        data.title,
        status && GRAPH_NODE_STATUS_LABELS[status],
        data.branchTaken && `took ${data.branchTaken}`,
        counted && itemProgressText(type === 'loop' ? 'loop' : 'map', progress),
      ]
        .filter(Boolean)
        .join(': ')}
      className={cn(
        'relative w-48 rounded-xl border bg-card text-card-foreground shadow-sm',
        status && STATUS_RING[status],
      )}
    >
      {status && <StatusBadge status={status} />}
      <Handle type="target" position={Position.Left} isConnectable={false} className={handleClass} />
      <div className="flex items-center gap-2 px-3 py-2.5">
        <span className={cn('grid size-7 shrink-0 place-items-center rounded-lg text-white', look.tint)}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 truncate text-sm leading-tight font-semibold" title={data.title}>
          {data.title}
        </div>
      </div>
      {counted && <ItemProgressLine kind={type === 'loop' ? 'loop' : 'map'} progress={progress} />}
      {branches ? (
        <ul className="border-t py-1 text-xs" aria-label="Paths">
          {branches.map((branch) => {
            const taken = data.branchTakenId === branch.id;
            return (
              <li
                key={branch.id}
                data-testid="graph-node-branch"
                data-taken={taken || undefined}
                className={cn(
                  'relative flex items-center gap-1 py-0.5 pr-4 pl-3',
                  taken
                    ? 'font-semibold text-emerald-700 dark:text-emerald-300'
                    : data.branchTakenId && 'text-muted-foreground/70',
                )}
              >
                <span className="min-w-0 flex-1 truncate text-right" title={branch.label}>
                  {branch.label}
                </span>
                {taken && <Check className="size-3 shrink-0" aria-label="taken" />}
                <Handle
                  id={branch.id}
                  type="source"
                  position={Position.Right}
                  isConnectable={false}
                  className={handleClass}
                />
              </li>
            );
          })}
        </ul>
      ) : (
        <Handle type="source" position={Position.Right} isConnectable={false} className={handleClass} />
      )}
    </div>
  );
}

/** A note: text on the canvas, never run. */
function NoteNodeComponent({ id, data }: NodeProps<GraphNode>) {
  return (
    <div
      data-testid={`graph-node-${id}`}
      className="w-48 rounded-lg border border-amber-300/60 bg-amber-50 p-2.5 text-xs text-amber-950 shadow-sm dark:border-amber-500/30 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <StickyNote className="mb-1 size-3.5 opacity-70" aria-hidden="true" />
      <p className="line-clamp-6 break-words whitespace-pre-wrap">{data.text || data.title}</p>
    </div>
  );
}

/** Defined once, at module scope (React Flow warns when this object changes). */
export const graphNodeTypes: NodeTypes = {
  start: memo(StartNodeComponent),
  end: memo(EndNodeComponent),
  agent: memo(AgentNodeComponent),
  condition: memo(StepNodeComponent),
  transform: memo(StepNodeComponent),
  code: memo(StepNodeComponent),
  merge: memo(StepNodeComponent),
  tool: memo(StepNodeComponent),
  map: memo(StepNodeComponent),
  loop: memo(StepNodeComponent),
  approval: memo(StepNodeComponent),
  delay: memo(StepNodeComponent),
  note: memo(NoteNodeComponent),
};
