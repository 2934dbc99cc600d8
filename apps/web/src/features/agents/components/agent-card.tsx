import type { Agent } from '@crewline/contracts';
import { Bot, FlaskConical, Pause, Play } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { CardActionsMenu } from '@/components/card-actions-menu';
import { CardActionsSkeleton, CardSkeleton } from '@/components/card-skeleton';
import { Spinner } from '@/components/spinner';
import { StatusBadge, type StatusTone } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';

import {
  agentStatusDisplay,
  displayMaxTokens,
  displayTemperature,
  nextToggleStatus,
  toolBadgeLabels,
  truncateDescription,
  type AgentStatusDisplay,
} from '../agent-display';
import { useAgentChat } from '../api/agent-chat';
import { useToggleAgentStatus } from '../api/agents';
import { AgentPlayground } from './agent-playground';
import { DeleteAgentDialog } from './delete-agent-dialog';
import { ProviderLabel } from './provider-icon';

const STATUS_TONE: Record<AgentStatusDisplay, StatusTone> = {
  active: 'green',
  busy: 'blue',
  error: 'red',
  inactive: 'gray',
};

/** Tool badges shown before the rest folds into '+N more'. */
const VISIBLE_TOOLS = 5;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** One agent of the grid. */
export function AgentCard({ agent }: { agent: Agent }) {
  const titleId = useId();
  const descriptionId = useId();
  const [expanded, setExpanded] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [playgroundOpen, setPlaygroundOpen] = useState(false);
  const chat = useAgentChat(agent.id);
  const toggleStatus = useToggleAgentStatus();

  const status = agentStatusDisplay(agent.status);
  const temperature = displayTemperature(agent.temperature);
  const description = truncateDescription(agent.description, expanded);
  const tools = toolBadgeLabels(agent.tools);
  const isActive = agent.status === 'active';

  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      data-testid="agent-card"
      data-agent-id={agent.id}
      className="h-full gap-0 py-0 transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md"
    >
      <div className="flex items-start gap-3 px-5 pt-5">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-violet-500/10 text-violet-600 dark:text-violet-400">
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate leading-tight font-semibold" title={agent.name}>
            <Link
              to={`/agents/edit/${encodeURIComponent(agent.id)}`}
              className="rounded-sm hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              {agent.name}
            </Link>
          </h3>
          <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{agent.role}</p>
        </div>
        <div className="-mt-1 -mr-2 flex shrink-0 items-center gap-1">
          <StatusBadge label={status} tone={STATUS_TONE[status]} />
          <CardActionsMenu
            thing="Agent"
            editTo={`/agents/edit/${encodeURIComponent(agent.id)}`}
            onDelete={() => setConfirmDelete(true)}
          />
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-4 px-5 py-4">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm">
          <Field label="Provider">
            <ProviderLabel provider={agent.llmProvider} />
          </Field>
          <Field label="Model">
            <span className="block truncate font-mono text-[13px] leading-6" title={agent.llmModel}>
              {agent.llmModel || '—'}
            </span>
          </Field>
          <Field label="Temperature">
            <div className="flex items-center gap-2">
              <Progress
                value={temperature}
                aria-label="Temperature"
                aria-valuetext={`${temperature}%`}
                className="h-1.5 flex-1"
              />
              <span className="w-9 shrink-0 text-right text-xs font-medium tabular-nums">{temperature}%</span>
            </div>
          </Field>
          <Field label="Max Tokens">
            <span className="font-medium tabular-nums">{displayMaxTokens(agent.maxTokens)}</span>
          </Field>
        </dl>

        <div className="space-y-1">
          {description.text ? (
            <p
              id={descriptionId}
              className="text-sm break-words whitespace-pre-line text-muted-foreground"
              data-testid="agent-description"
            >
              {description.text}
            </p>
          ) : (
            <p className="text-sm text-muted-foreground/70 italic">No description</p>
          )}
          {description.truncatable && (
            <button
              type="button"
              className="text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
              aria-expanded={expanded}
              aria-controls={descriptionId}
              onClick={() => setExpanded((value) => !value)}
            >
              {expanded ? 'Show less' : 'Show more'}
            </button>
          )}
        </div>

        <div className="mt-auto space-y-1.5">
          <p className="text-xs text-muted-foreground">Tools</p>
          {tools.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Tools">
              {tools.slice(0, VISIBLE_TOOLS).map((tool, index) => (
                <li key={`${tool}-${index}`}>
                  <Badge variant="secondary" className="max-w-40 font-normal">
                    <span className="truncate">{tool}</span>
                  </Badge>
                </li>
              ))}
              {tools.length > VISIBLE_TOOLS && (
                <li>
                  <Badge
                    variant="outline"
                    className="font-normal"
                    title={tools.slice(VISIBLE_TOOLS).join(', ')}
                  >
                    +{tools.length - VISIBLE_TOOLS} more
                  </Badge>
                </li>
              )}
            </ul>
          ) : (
            <p className="flex min-h-[22px] items-center text-xs text-muted-foreground/70 italic">No tools</p>
          )}
        </div>
      </div>

      <div className="grid grid-cols-2 gap-2 border-t px-5 py-3">
        <Button
          type="button"
          variant="outline"
          size="sm"
          // The playground opens with the test's greeting, and its first reply ends with the test's toast.
          onClick={() => {
            chat.start();
            setPlaygroundOpen(true);
          }}
          aria-haspopup="dialog"
        >
          <FlaskConical aria-hidden="true" />
          Test
        </Button>
        <Button
          type="button"
          variant={isActive ? 'outline' : 'default'}
          size="sm"
          onClick={() => toggleStatus.mutate({ id: agent.id, status: nextToggleStatus(agent.status) })}
          disabled={toggleStatus.isPending}
          aria-busy={toggleStatus.isPending}
        >
          {toggleStatus.isPending ? (
            <Spinner />
          ) : isActive ? (
            <Pause aria-hidden="true" />
          ) : (
            <Play aria-hidden="true" />
          )}
          {isActive ? 'Pause' : 'Activate'}
        </Button>
      </div>

      <DeleteAgentDialog agent={agent} open={confirmDelete} onOpenChange={setConfirmDelete} />
      <AgentPlayground agent={agent} chat={chat} open={playgroundOpen} onOpenChange={setPlaygroundOpen} />
    </Card>
  );
}

/** The placeholder of a card while the list loads. */
export function AgentCardSkeleton() {
  return (
    <CardSkeleton testId="agent-card-skeleton">
      <div className="flex items-start gap-3 px-5 pt-5">
        <Skeleton className="size-10 rounded-lg" />
        <div className="flex-1 space-y-2 pt-0.5">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-1/2" />
        </div>
        <Skeleton className="h-5 w-14" />
      </div>
      <div className="space-y-4 px-5 py-4">
        <Skeleton className="h-28 w-full rounded-lg" />
        <div className="space-y-2">
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-4/5" />
        </div>
        <div className="flex gap-1.5">
          <Skeleton className="h-5 w-16" />
          <Skeleton className="h-5 w-20" />
        </div>
      </div>
      <CardActionsSkeleton />
    </CardSkeleton>
  );
}
