// The Agent node on the canvas (its agent, model, output destination and live run mark) and its part
// of the Properties panel.
import { AGENT_BLOCKED_PATH, type Agent } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { Handle, Position, useNodeConnections, type NodeProps } from '@xyflow/react';
import { Bot, Cpu, Database, FileText, Globe, Mail, Workflow } from 'lucide-react';
import { memo, useCallback, type CSSProperties } from 'react';

import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';

import { RunBadge, RUN_RING, SKIPPED_LOOK, SkippedBadge } from '../components/run-badge';
import { useNodeRunState, useNodeSkipped } from '../run-progress';
import { AGENT_BLOCKED_PATH_LABEL } from '../builder-nodes';
import { useNodeRunCost } from '../use-node-run-cost';
import { OUTPUT_DESTINATION_LABELS, type BuilderNode, type OutputDestination } from '../types';
import { lazyPanel } from './lazy-panel';
import { handleClass } from './handle';
import { PathRow } from './path-row';
import type { BuilderNodeKind } from './types';

const DESTINATION_ICONS: Record<OutputDestination, typeof Database> = {
  database: Database,
  file: FileText,
  webhook: Globe,
  email: Mail,
  nextNode: Workflow,
};

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

/** Whether any of the agent's guardrails is on (its node then offers a Blocked path). */
const guarded = (agent: Agent) =>
  Object.values(agent.guardrails ?? {}).some((checks) => checks?.some((c) => c.enabled));

/**
 * Whether the node offers its Blocked path: its agent has guardrails on, or an edge already leaves
 * from it (kept visible, so the edge is never left without its handle).
 */
function useBlockedPath(id: string, agentId: string | undefined) {
  const select = useCallback(
    (agents: Agent[]) => agents.some((a) => a.id === agentId && guarded(a)),
    [agentId],
  );
  const hasGuardrails =
    useQuery<Agent[], Error, boolean>({
      queryKey: queryKeys.agents.all,
      enabled: !!agentId,
      staleTime: Infinity,
      select,
    }).data ?? false;
  const connected = useNodeConnections({ id, handleType: 'source', handleId: AGENT_BLOCKED_PATH }).length > 0;
  return hasGuardrails || connected;
}

function AgentNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const color = data.color || '#6366f1';
  const DestinationIcon = DESTINATION_ICONS[data.outputDestination] ?? Database;
  const name = data.name || data.label;
  // Live progress lives outside the node data (run-progress.ts): it never makes the workflow dirty.
  const run = useNodeRunState(id);
  const cost = useNodeRunCost(id);
  const skipped = useNodeSkipped(id) && !run;
  const deleted = useAgentDeleted(data.agentId);
  const blockedPath = useBlockedPath(id, data.agentId);
  return (
    <div
      data-testid={`node-${id}`}
      data-run-status={run?.status ?? (skipped ? 'skipped' : undefined)}
      data-agent-deleted={deleted || undefined}
      style={{ '--node-accent': color } as CSSProperties}
      className={cn(
        'relative w-60 rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md',
        selected && 'border-[var(--node-accent)] ring-2 ring-[var(--node-accent)]/30',
        run && RUN_RING[run.status],
        skipped && SKIPPED_LOOK,
        deleted && !run && 'border-destructive ring-2 ring-destructive/40',
      )}
    >
      {run && <RunBadge run={run} costUsd={cost} />}
      {skipped && <SkippedBadge />}
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
      {blockedPath && <PathRow handle={AGENT_BLOCKED_PATH} label={AGENT_BLOCKED_PATH_LABEL} muted />}
    </div>
  );
}

export const agentKind: BuilderNodeKind<'agent'> = {
  kind: 'agent',
  Node: memo(AgentNodeComponent),
  Icon: Bot,
  accent: '#6366f1',
  miniMapColor: (node) => node.data?.color || '#6366f1',
  PanelSummary: lazyPanel(
    () => import('./agent-panel'),
    (m) => m.AgentPanelSummary,
  ),
  PanelSettings: lazyPanel(
    () => import('./agent-panel'),
    (m) => m.AgentPanelSettings,
  ),
};
