// The read-only graph's node components: the builder's look (features/workflows/builder/components/
// nodes.tsx) without its store, with each agent's status in a run as a coloured ring and a labelled badge.
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import { Bot, Check, Circle, Cpu, Flag, Play, Recycle, X } from 'lucide-react';
import { memo, type CSSProperties } from 'react';

import { cn } from '@/lib/utils';

import { GRAPH_NODE_STATUS_LABELS, type GraphNode, type GraphNodeStatus } from './graph-elements';

// Edges attach to handles, so they stay; nothing can be connected here, so they are barely visible.
const handleClass = '!size-2 !min-w-0 !rounded-full !border-0 !bg-muted-foreground/50';

const STATUS_RING: Record<GraphNodeStatus, string> = {
  pending: 'border-dashed opacity-80',
  running: 'shadow-md shadow-blue-500/20 ring-2 ring-blue-500/70',
  completed: 'ring-2 ring-emerald-500/60',
  failed: 'ring-2 ring-red-500/70',
  reused: 'ring-2 ring-violet-500/60',
};

const STATUS_BADGE: Record<GraphNodeStatus, string> = {
  pending: 'border-border bg-muted text-muted-foreground',
  running: 'border-blue-500/30 bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  completed: 'border-emerald-500/30 bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  failed: 'border-red-500/30 bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
  reused: 'border-violet-500/30 bg-violet-50 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
};

const STATUS_TITLE: Record<GraphNodeStatus, string> = {
  pending: 'This step did not run',
  running: 'Running now',
  completed: 'This step completed',
  failed: 'The run failed at this step',
  reused: 'Output reused from an earlier run, no model call',
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
    status === 'completed' ? Check : status === 'failed' ? X : status === 'reused' ? Recycle : Circle;
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

/** Defined once, at module scope (React Flow warns when this object changes). */
export const graphNodeTypes: NodeTypes = {
  start: memo(StartNodeComponent),
  end: memo(EndNodeComponent),
  agent: memo(AgentNodeComponent),
};
