import type { Agent, ExecutionSummary, Workflow } from '@crewline/contracts';
import { llmProviderLabels } from '@crewline/contracts/vocabulary';
import { Bot, Cpu, History, Plus, Workflow as WorkflowIcon } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import {
  agentStatusLabel,
  agentStatusTone,
  executionStatusTone,
  StatusBadge,
  workflowStatusTone,
} from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatCost, formatDateTime, formatDuration, formatRelativeTime } from '@/lib/format';
import { useAgents } from '@/lib/queries/agents';
import { useExecutions } from '@/lib/queries/executions';
import { useWorkflows } from '@/lib/queries/workflows';
import { runDetailsPath } from '@/lib/run-links';
import { useNow } from '@/lib/use-now';

const RECENT_AGENTS = 6;
const RECENT_WORKFLOWS = 5;
const RECENT_EXECUTIONS = 5;

const PROVIDER_LABELS: Record<string, string> = llmProviderLabels;

function ListSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading">
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} className="gap-3 py-4" data-testid="dashboard-skeleton">
          <CardContent className="flex items-center gap-3 px-4">
            <Skeleton className="size-9 rounded-lg" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-1/2" />
            </div>
            <Skeleton className="h-5 w-16" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

/** A tab's list: placeholders while it loads, a retry when it failed, `empty` when it has nothing. */
function TabPanel<T>({
  query,
  what,
  empty,
  render,
}: {
  query: { data: T[] | undefined; isLoading: boolean; isError: boolean; refetch: () => unknown };
  what: string;
  empty: ReactNode;
  render: (list: T[]) => ReactNode;
}) {
  if (query.isLoading) return <ListSkeleton />;
  if (query.isError || query.data === undefined)
    return <LoadErrorState title={`Could not load ${what}`} size="sm" onRetry={() => void query.refetch()} />;
  return <>{query.data.length === 0 ? empty : render(query.data)}</>;
}

/**
 * A whole row as one link to its page (a real link: middle-click and the keyboard work). The row
 * holds nothing else interactive, so nothing is nested inside the link. min-w-0: a grid item would
 * otherwise grow to its longest name, past a phone's edge, instead of truncating it.
 */
function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="group block min-w-0 rounded-xl focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      {children}
    </Link>
  );
}

/** The kind's icon on its colour, at the start of a row. */
function RowIcon({ icon: Icon, tone }: { icon: LucideIcon; tone: string }) {
  return (
    <span className={`grid size-9 shrink-0 place-items-center rounded-lg ${tone}`}>
      <Icon className="size-4.5" aria-hidden="true" />
    </span>
  );
}

/** A workflow's or a run's row: icon, name and a line under it; `aside` on the right (under it on a phone). */
function SummaryRow({
  icon,
  tone,
  title,
  subtitle,
  aside,
}: {
  icon: LucideIcon;
  tone: string;
  title: string;
  subtitle: ReactNode;
  aside: ReactNode;
}) {
  return (
    <Card className="gap-3 py-4 transition-colors group-hover:border-primary/30">
      <CardContent className="flex flex-col gap-3 px-4 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <RowIcon icon={icon} tone={tone} />
          <div className="min-w-0">
            <p className="truncate font-medium">{title}</p>
            {subtitle}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2 pl-12 sm:pl-0">{aside}</div>
      </CardContent>
    </Card>
  );
}

function AgentCard({ agent }: { agent: Agent }) {
  const status = agentStatusLabel(agent.status);
  return (
    <Card className="gap-3 py-4 transition-colors group-hover:border-primary/30">
      <CardContent className="space-y-3 px-4">
        <div className="flex items-start gap-3">
          <RowIcon icon={Bot} tone="bg-violet-500/10 text-violet-600 dark:text-violet-400" />
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{agent.name}</p>
            <p className="truncate text-sm text-muted-foreground">{agent.role}</p>
          </div>
          <StatusBadge label={status} tone={agentStatusTone(agent.status)} />
        </div>
        <div className="flex items-center gap-2 text-xs text-muted-foreground">
          <Cpu className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="truncate">
            {PROVIDER_LABELS[agent.llmProvider] ?? agent.llmProvider} · {agent.llmModel}
          </span>
        </div>
      </CardContent>
    </Card>
  );
}

function WorkflowRow({ workflow }: { workflow: Workflow }) {
  const agentCount = workflow.nodes.filter((node) => node.type === 'agent').length;
  return (
    <SummaryRow
      icon={WorkflowIcon}
      tone="bg-indigo-500/10 text-indigo-600 dark:text-indigo-400"
      title={workflow.name}
      subtitle={
        <p className="line-clamp-1 text-sm text-muted-foreground">
          {workflow.description || 'No description'}
        </p>
      }
      aside={
        <>
          <span className="text-xs text-muted-foreground">
            {agentCount} {agentCount === 1 ? 'agent' : 'agents'}
          </span>
          <Badge variant="outline" className="capitalize">
            {workflow.processType}
          </Badge>
          <StatusBadge label={workflow.status} tone={workflowStatusTone(workflow.status)} />
        </>
      }
    />
  );
}

function ExecutionRow({ execution, now }: { execution: ExecutionSummary; now: number }) {
  // While running: start to now (docs/product-rules.md), ticking with `now`.
  const duration = formatDuration(execution.startedAt, execution.completedAt, now);
  const started = execution.startedAt ?? execution.createdAt;
  return (
    <SummaryRow
      icon={History}
      tone="bg-sky-500/10 text-sky-600 dark:text-sky-400"
      title={execution.workflowName || 'Unknown Workflow'}
      subtitle={
        <p className="text-sm text-muted-foreground">
          {execution.startedAt ? 'Started' : 'Queued'}{' '}
          <time dateTime={started} title={formatDateTime(started)}>
            {formatRelativeTime(started)}
          </time>
          {duration && <span> · {duration}</span>}
          {/* What its model calls cost, as on its run card; nothing before it ends or from before costs. */}
          {execution.costUsd !== undefined && (
            <span className="tabular-nums" data-testid="execution-cost">
              {' · '}
              {execution.costUsd === null ? 'Cost unknown' : formatCost(execution.costUsd)}
            </span>
          )}
        </p>
      }
      aside={
        <>
          <span className="font-mono text-xs text-muted-foreground">{execution.id.slice(0, 8)}</span>
          <StatusBadge label={execution.status} tone={executionStatusTone(execution.status)} />
        </>
      }
    />
  );
}

function newestFirst(executions: ExecutionSummary[]): ExecutionSummary[] {
  return [...executions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** The newest runs; statuses and durations follow the realtime events (lib/realtime-invalidation). */
function RecentExecutionList({ executions }: { executions: ExecutionSummary[] }) {
  const recent = newestFirst(executions).slice(0, RECENT_EXECUTIONS);
  const now = useNow(recent.some((execution) => execution.status === 'running' && !execution.completedAt));
  return (
    <div className="grid gap-3">
      {recent.map((execution) => (
        <RowLink key={execution.id} to={runDetailsPath(execution.id)}>
          <ExecutionRow execution={execution} now={now} />
        </RowLink>
      ))}
    </div>
  );
}

export function RecentTabs() {
  const agents = useAgents();
  const workflows = useWorkflows();
  const executions = useExecutions();

  return (
    <Tabs defaultValue="agents" className="gap-4">
      <TabsList className="w-full sm:w-fit">
        <TabsTrigger value="agents" className="px-2 text-xs sm:px-3 sm:text-sm">
          Recent Agents
        </TabsTrigger>
        <TabsTrigger value="workflows" className="px-2 text-xs sm:px-3 sm:text-sm">
          Recent Workflows
        </TabsTrigger>
        <TabsTrigger value="executions" className="px-2 text-xs sm:px-3 sm:text-sm">
          Recent Executions
        </TabsTrigger>
      </TabsList>

      <TabsContent value="agents">
        <TabPanel
          query={agents}
          what="agents"
          empty={
            <EmptyState
              icon={Bot}
              title="No agents created yet"
              description="Agents are the members of your crew: each has a role, a goal and a model."
              action={
                <Button asChild>
                  <Link to="/agents">
                    <Plus aria-hidden="true" />
                    Create Your First Agent
                  </Link>
                </Button>
              }
            />
          }
          render={(list) => (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {list.slice(0, RECENT_AGENTS).map((agent) => (
                <RowLink key={agent.id} to={`/agents/edit/${encodeURIComponent(agent.id)}`}>
                  <AgentCard agent={agent} />
                </RowLink>
              ))}
            </div>
          )}
        />
      </TabsContent>

      <TabsContent value="workflows">
        <TabPanel
          query={workflows}
          what="workflows"
          empty={
            <EmptyState
              icon={WorkflowIcon}
              title="No workflows created yet"
              description="Workflows connect your agents so they can hand work to each other."
              action={
                <Button asChild>
                  <Link to="/workflows">
                    <Plus aria-hidden="true" />
                    Create Workflow
                  </Link>
                </Button>
              }
            />
          }
          render={(list) => (
            <div className="grid gap-3">
              {list.slice(0, RECENT_WORKFLOWS).map((workflow) => (
                <RowLink key={workflow.id} to={`/workflows/edit/${encodeURIComponent(workflow.id)}`}>
                  <WorkflowRow workflow={workflow} />
                </RowLink>
              ))}
            </div>
          )}
        />
      </TabsContent>

      <TabsContent value="executions">
        <TabPanel
          query={executions}
          what="executions"
          empty={
            <EmptyState
              icon={History}
              title="No recent executions"
              description="Runs of your workflows will show up here as soon as they start."
            />
          }
          render={(list) => <RecentExecutionList executions={list} />}
        />
      </TabsContent>
    </Tabs>
  );
}
