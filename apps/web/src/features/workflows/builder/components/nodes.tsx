// The canvas node components (start, end, agent), memoized, and the node types map built once at
// module scope so React Flow never re-creates them.
import type { Agent } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import { Bot, Check, Cpu, Database, FileText, Flag, Globe, Mail, Play, Workflow, X } from 'lucide-react';
import { memo, useCallback, type CSSProperties } from 'react';

import { formatMilliseconds } from '@/lib/format';
import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';

import { useNodeRunState, type NodeRunState, type NodeRunStatus } from '../run-progress';
import { OUTPUT_DESTINATION_LABELS, type BuilderNode, type OutputDestination } from '../types';

const handleClass =
  '!size-3 !rounded-full !border-2 !border-background !bg-muted-foreground transition-colors hover:!bg-primary';

const DESTINATION_ICONS: Record<OutputDestination, typeof Database> = {
  database: Database,
  file: FileText,
  webhook: Globe,
  email: Mail,
  nextNode: Workflow,
};

function StartNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  return (
    <div
      data-testid={`node-${id}`}
      className={cn(
        'flex min-w-32 items-center gap-2.5 rounded-full border-2 border-emerald-500/70 bg-card py-2 pr-5 pl-2 shadow-sm transition-shadow',
        selected && 'ring-2 ring-emerald-500/40 ring-offset-2 ring-offset-background',
      )}
    >
      <span className="grid size-8 place-items-center rounded-full bg-emerald-500 text-white">
        <Play className="size-4 fill-current" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.label || 'Start'}</span>
      <Handle type="source" position={Position.Right} className={handleClass} />
    </div>
  );
}

function EndNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  return (
    <div
      data-testid={`node-${id}`}
      className={cn(
        'flex min-w-32 items-center gap-2.5 rounded-full border-2 border-rose-500/70 bg-card py-2 pr-5 pl-2 shadow-sm transition-shadow',
        selected && 'ring-2 ring-rose-500/40 ring-offset-2 ring-offset-background',
      )}
    >
      <Handle type="target" position={Position.Left} className={handleClass} />
      <span className="grid size-8 place-items-center rounded-full bg-rose-500 text-white">
        <Flag className="size-4" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.label || 'End'}</span>
    </div>
  );
}

const RUN_RING: Record<NodeRunStatus, string> = {
  running: 'shadow-md shadow-blue-500/20 ring-2 ring-blue-500/70',
  completed: 'ring-2 ring-emerald-500/60',
  failed: 'ring-2 ring-red-500/70',
};

/** The live mark of a node in the run in progress (or the last run): Running, Done with its time, Failed. */
function RunBadge({ run }: { run: NodeRunState }) {
  const time = run.status === 'completed' ? formatMilliseconds(run.executionTime) : null;
  const tokens = run.totalTokens ? `, ${run.totalTokens} tokens` : '';
  return (
    <span
      data-testid="node-run-status"
      title={
        run.status === 'completed'
          ? `Finished${time ? ` in ${time}` : ''}${tokens}`
          : run.status === 'running'
            ? 'Running now'
            : 'The run failed at this agent'
      }
      className={cn(
        'absolute -top-2.5 right-3 flex items-center gap-1 rounded-full border px-2 py-0.5 text-[10px] leading-none font-semibold shadow-sm',
        run.status === 'running' &&
          'border-blue-500/30 bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
        run.status === 'completed' &&
          'border-emerald-500/30 bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
        run.status === 'failed' &&
          'border-red-500/30 bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
      )}
    >
      {run.status === 'running' && (
        <span className="relative flex size-1.5" aria-hidden="true">
          <span className="absolute inline-flex size-full rounded-full bg-blue-500 opacity-75 motion-safe:animate-ping" />
          <span className="relative inline-flex size-1.5 rounded-full bg-blue-500" />
        </span>
      )}
      {run.status === 'completed' && <Check className="size-3" aria-hidden="true" />}
      {run.status === 'failed' && <X className="size-3" aria-hidden="true" />}
      {run.status === 'running'
        ? 'Running'
        : run.status === 'completed'
          ? `Done${time ? ` · ${time}` : ''}`
          : 'Failed'}
    </span>
  );
}

/**
 * Whether the step's agent is gone from the organization (deleted since the step was placed): the
 * builder's own read of the agents answers it, so false until that arrives.
 */
function useAgentDeleted(agentId: string | undefined) {
  const select = useCallback((agents: Agent[]) => !agents.some((a) => a.id === agentId), [agentId]);
  return (
    useQuery<Agent[], Error, boolean>({
      queryKey: queryKeys.agents.all,
      enabled: !!agentId,
      staleTime: Infinity,
      select,
    }).data ?? false
  );
}

function AgentNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const color = data.color || '#6366f1';
  const DestinationIcon = DESTINATION_ICONS[data.outputDestination] ?? Database;
  const name = data.name || data.label;
  // Live progress lives outside the node data (run-progress.ts): it never makes the workflow dirty.
  const run = useNodeRunState(id);
  const deleted = useAgentDeleted(data.agentId);
  return (
    <div
      data-testid={`node-${id}`}
      data-run-status={run?.status}
      data-agent-deleted={deleted || undefined}
      style={{ '--node-accent': color } as CSSProperties}
      className={cn(
        'relative w-60 rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md',
        selected && 'border-[var(--node-accent)] ring-2 ring-[var(--node-accent)]/30',
        run && RUN_RING[run.status],
        deleted && !run && 'border-destructive ring-2 ring-destructive/40',
      )}
    >
      {run && <RunBadge run={run} />}
      <Handle type="target" position={Position.Left} className={handleClass} />
      {/* No overflow-hidden on the card: it would clip the handles and make them hard to grab. */}
      <div
        className="absolute inset-y-0 left-0 w-1 rounded-l-xl bg-[var(--node-accent)]"
        aria-hidden="true"
      />
      <div className="space-y-2.5 py-3 pr-3 pl-4">
        <div className="flex items-start gap-2.5">
          <span
            className="grid size-8 shrink-0 place-items-center rounded-lg text-white"
            style={{ backgroundColor: color }}
          >
            <Bot className="size-4" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <div className="truncate text-sm leading-tight font-semibold" title={name}>
              {name}
            </div>
            {data.label && data.label !== name && (
              <div className="truncate text-xs text-muted-foreground" title={data.label}>
                {data.label}
              </div>
            )}
            <div className="truncate text-xs text-muted-foreground" title={data.role}>
              {data.role || 'Agent'}
            </div>
            {deleted && (
              <div className="mt-1 text-xs font-medium text-destructive" data-testid="node-agent-deleted">
                This agent was deleted
              </div>
            )}
          </div>
        </div>
        <div className="flex items-center justify-between gap-2 border-t pt-2 text-[11px] text-muted-foreground">
          <span className="flex min-w-0 items-center gap-1" title="Model">
            <Cpu className="size-3 shrink-0" aria-hidden="true" />
            <span className="truncate font-mono">{data.model || 'default model'}</span>
          </span>
          <span className="flex shrink-0 items-center gap-1" title="Output destination">
            <DestinationIcon className="size-3" aria-hidden="true" />
            {OUTPUT_DESTINATION_LABELS[data.outputDestination] ?? data.outputDestination}
          </span>
        </div>
      </div>
      <Handle type="source" position={Position.Right} className={handleClass} />
    </div>
  );
}

export const StartNode = memo(StartNodeComponent);
export const EndNode = memo(EndNodeComponent);
export const AgentNode = memo(AgentNodeComponent);

/** Defined once, at module scope (React Flow warns when this object changes). */
export const nodeTypes: NodeTypes = { start: StartNode, end: EndNode, agent: AgentNode };
