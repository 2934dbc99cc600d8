// Agents tab: the organization's agents (click to add a node, or drag it onto the canvas) and the
// trigger cards.
import { Bot, Clock, Hand, Mail, Plus, Webhook } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAgents } from '@/lib/queries/agents';
import { cn } from '@/lib/utils';

import { useBuilderStore } from '../store';
import { TRIGGER_TYPE_LABELS, TRIGGER_TYPES, type TriggerType } from '../types';
import { NODE_COLORS } from '../builder-nodes';
import { AGENT_DRAG_TYPE } from '../canvas/drag-types';

const TRIGGER_CARDS: Record<TriggerType, { icon: typeof Hand; hint: string }> = {
  manual: { icon: Hand, hint: 'Run on demand' },
  schedule: { icon: Clock, hint: 'Run on a cron schedule' },
  webhook: { icon: Webhook, hint: 'Run on an HTTP call' },
  email: { icon: Mail, hint: 'Run on incoming email' },
};

function SectionTitle({ children }: { children: string }) {
  return <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{children}</h3>;
}

export function AgentsTab() {
  const agents = useAgents();
  const addAgentNode = useBuilderStore((s) => s.addAgentNode);
  const triggerType = useBuilderStore((s) => s.settings.triggerType);
  const setSettings = useBuilderStore((s) => s.setSettings);
  const setTab = useBuilderStore((s) => s.setTab);

  return (
    <div className="space-y-6">
      <section className="space-y-2.5">
        <div className="flex items-center justify-between">
          <SectionTitle>Agents</SectionTitle>
          {agents.data && <span className="text-xs text-muted-foreground">{agents.data.length}</span>}
        </div>
        {agents.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading agents">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-14 rounded-lg" />
            ))}
          </div>
        ) : agents.isError ? (
          <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
            Agents could not be loaded.{' '}
            <button
              type="button"
              className="font-medium text-primary underline"
              onClick={() => void agents.refetch()}
            >
              Try again
            </button>
          </p>
        ) : agents.data.length === 0 ? (
          <div className="space-y-2 rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
            <Bot className="mx-auto size-6" aria-hidden="true" />
            <p>No agents yet. Create one to add it to this workflow.</p>
            <Button asChild size="sm" variant="outline">
              <Link to="/agents">Go to Agents</Link>
            </Button>
          </div>
        ) : (
          <ul className="space-y-1.5">
            {agents.data.map((agent, index) => (
              <li key={agent.id}>
                <button
                  type="button"
                  aria-label={`Add ${agent.name}`}
                  onClick={() => addAgentNode(agent)}
                  draggable
                  onDragStart={(event) => {
                    event.dataTransfer.setData(AGENT_DRAG_TYPE, agent.id);
                    event.dataTransfer.effectAllowed = 'copy';
                  }}
                  className="group flex w-full items-center gap-3 rounded-lg border bg-card p-2.5 text-left transition-colors hover:border-primary/40 hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                >
                  <span
                    className="grid size-8 shrink-0 place-items-center rounded-md text-white"
                    style={{ backgroundColor: NODE_COLORS[index % NODE_COLORS.length] }}
                  >
                    <Bot className="size-4" aria-hidden="true" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{agent.name}</span>
                    <span className="block truncate text-xs text-muted-foreground">{agent.role}</span>
                  </span>
                  <Plus
                    className="size-4 shrink-0 text-muted-foreground transition-colors group-hover:text-primary"
                    aria-hidden="true"
                  />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="space-y-2.5">
        <SectionTitle>Triggers</SectionTitle>
        <div className="grid grid-cols-2 gap-2">
          {TRIGGER_TYPES.map((type) => {
            const { icon: Icon, hint } = TRIGGER_CARDS[type];
            const active = triggerType === type;
            return (
              <button
                key={type}
                type="button"
                aria-pressed={active}
                onClick={() => {
                  setSettings({ triggerType: type });
                  if (type !== 'manual') setTab('settings');
                }}
                className={cn(
                  'flex flex-col items-start gap-1 rounded-lg border bg-card p-2.5 text-left transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
                  active && 'border-primary bg-primary/5 ring-1 ring-primary/30',
                )}
              >
                <Icon
                  className={cn('size-4', active ? 'text-primary' : 'text-muted-foreground')}
                  aria-hidden="true"
                />
                <span className="text-sm font-medium">{TRIGGER_TYPE_LABELS[type]}</span>
                <span className="text-[11px] leading-tight text-muted-foreground">{hint}</span>
              </button>
            );
          })}
        </div>
      </section>
    </div>
  );
}
