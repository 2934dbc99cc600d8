import type { AgentAnalytics } from '@crewline/contracts';
import { Bot, Plus } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { runs, shareOf, utilizationLevel, type UtilizationLevel } from '../analytics-figures';

const dot: Record<UtilizationLevel, string> = {
  high: 'bg-emerald-500',
  medium: 'bg-amber-500',
  low: 'bg-muted-foreground/40',
};

const legend: { level: UtilizationLevel; text: string }[] = [
  { level: 'high', text: 'More than 10 runs' },
  { level: 'medium', text: 'More than 5' },
  { level: 'low', text: '5 or fewer' },
];

/** The organization's busiest agents (up to 20, from the API) with their runs in the range, busiest first. */
export function AgentUtilizationCard({ agents }: { agents: AgentAnalytics[] }) {
  const busiest = agents.reduce((max, agent) => Math.max(max, agent.executions), 0);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Agent Utilization</CardTitle>
        <CardDescription>Runs of each agent in the selected period</CardDescription>
      </CardHeader>
      <CardContent>
        {agents.length === 0 ? (
          <EmptyState
            icon={Bot}
            title="No agents yet"
            description="Create an agent and add it to a workflow to see how much it works."
            action={
              <Button asChild size="sm">
                <Link to="/agents">
                  <Plus aria-hidden="true" />
                  Create Agent
                </Link>
              </Button>
            }
          />
        ) : (
          <ul className="-mr-2 max-h-[26rem] space-y-4 overflow-y-auto pr-2" aria-label="Agent utilization">
            {agents.map((agent) => (
              <li key={agent.agentId} className="space-y-1.5" data-testid="agent-utilization-row">
                <div className="flex items-center gap-3">
                  <span
                    className={cn('size-2.5 shrink-0 rounded-full', dot[utilizationLevel(agent.executions)])}
                    aria-hidden="true"
                  />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{agent.name}</p>
                    {agent.role && <p className="truncate text-xs text-muted-foreground">{agent.role}</p>}
                  </div>
                  <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
                    {runs(agent.executions)}
                  </span>
                </div>
                <div className="ml-5.5 h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div
                    className="h-full rounded-full bg-primary/70"
                    style={{ width: `${shareOf(agent.executions, busiest)}%` }}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {agents.length > 0 && (
        <CardFooter className="flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          {legend.map(({ level, text }) => (
            <span key={level} className="flex items-center gap-1.5">
              <span className={cn('size-2 rounded-full', dot[level])} aria-hidden="true" />
              {text}
            </span>
          ))}
        </CardFooter>
      )}
    </Card>
  );
}
