import type { Connection } from '@crewline/contracts';
import { ArrowUpRight, Bot, Brain, Database, Lock, Mail, Plug, Server, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useProviders } from '@/lib/queries/providers';
import { useAuth } from '@/lib/session';

import { useConnections } from '../api/list-connections';
import { FALLBACK_MODELS, LLM_CONNECTIONS, normalizeProviderModels, OTHER_CONNECTIONS } from '../connections';
import { ConnectionCard } from './connection-card';
import { canChangeConnections, CONNECTIONS_READ_ONLY } from '../team-permissions';
import { McpServersCard } from './mcp-servers-card';
import { MicrosoftCard } from './microsoft-card';

/** Provider colours: OpenAI blue, Anthropic purple, local green, others gray (docs/product-rules.md). */
const visuals: Record<string, { icon: LucideIcon; tone: string }> = {
  openai_config: { icon: Bot, tone: 'bg-blue-500/10 text-blue-600 dark:text-blue-400' },
  anthropic_config: { icon: Brain, tone: 'bg-violet-500/10 text-violet-600 dark:text-violet-400' },
  local_config: { icon: Server, tone: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400' },
  custom_config: { icon: Plug, tone: 'bg-slate-500/10 text-slate-600 dark:text-slate-300' },
  database_config: { icon: Database, tone: 'bg-slate-500/10 text-slate-600 dark:text-slate-300' },
  sendgrid_config: { icon: Mail, tone: 'bg-slate-500/10 text-slate-600 dark:text-slate-300' },
};

function CardsSkeleton({ count }: { count: number }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2" aria-busy="true" aria-label="Loading connections">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} className="gap-5">
          <CardHeader className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-lg" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-3 w-56" />
            </div>
            <Skeleton className="h-5 w-9 rounded-full" />
          </CardHeader>
          <CardContent className="space-y-3">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

export function ToolsTab() {
  const { organization } = useAuth();
  // The session's role: a live role change refetches it, and the controls follow.
  const readOnlyReason = canChangeConnections(organization?.role) ? null : CONNECTIONS_READ_ONLY;
  const connections = useConnections();
  const providers = useProviders(normalizeProviderModels);
  const models = providers.data ?? FALLBACK_MODELS;
  const byId = new Map<string, Connection>((connections.data ?? []).map((item) => [item.id, item]));

  const cards = (defs: typeof LLM_CONNECTIONS) => (
    <div className="grid gap-4 lg:grid-cols-2">
      {defs.map((def) => (
        <ConnectionCard
          key={def.id}
          def={def}
          connection={byId.get(def.id)}
          models={models}
          icon={visuals[def.id].icon}
          tone={visuals[def.id].tone}
          readOnlyReason={readOnlyReason}
        />
      ))}
    </div>
  );

  return (
    <div className="space-y-10">
      <section aria-labelledby="llm-connections-heading" className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="space-y-1">
            <h2 id="llm-connections-heading" className="text-lg font-semibold tracking-tight">
              LLM Connections
            </h2>
            <p className="text-sm text-muted-foreground">
              The model providers your agents run on. Keys are stored encrypted and only their last characters
              are shown.
            </p>
          </div>
          <Button asChild variant="outline" size="sm" className="self-start sm:self-auto">
            <Link to="/tools">
              Manage tools
              <ArrowUpRight aria-hidden="true" />
            </Link>
          </Button>
        </div>

        {readOnlyReason && (
          <p
            className="flex items-center gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm text-muted-foreground"
            data-testid="connections-read-only"
          >
            <Lock className="size-4 shrink-0" aria-hidden="true" />
            {readOnlyReason}
          </p>
        )}

        {connections.isLoading ? (
          <CardsSkeleton count={4} />
        ) : connections.isError ? (
          <EmptyState
            title="Could not load your connections"
            description="Check your connection and try again."
            action={
              <Button variant="outline" size="sm" onClick={() => void connections.refetch()}>
                Try again
              </Button>
            }
          />
        ) : (
          cards(LLM_CONNECTIONS)
        )}
      </section>

      <section aria-labelledby="integrations-heading" className="space-y-4">
        <div className="space-y-1">
          <h2 id="integrations-heading" className="text-lg font-semibold tracking-tight">
            Integrations
          </h2>
          <p className="text-sm text-muted-foreground">
            Accounts that start workflows for you, and servers whose tools your agents call.
          </p>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <MicrosoftCard readOnlyReason={readOnlyReason} />
          <McpServersCard />
        </div>
      </section>

      {connections.isSuccess && (
        <Accordion type="single" collapsible className="rounded-xl border px-4">
          <AccordionItem value="other">
            <AccordionTrigger className="hover:no-underline">
              <span className="space-y-1 text-left">
                <span className="block text-base font-semibold">Other connections</span>
                <span className="block text-sm font-normal text-muted-foreground">
                  A database and an email sender your workflows can use
                </span>
              </span>
            </AccordionTrigger>
            <AccordionContent className="pt-2">{cards(OTHER_CONNECTIONS)}</AccordionContent>
          </AccordionItem>
        </Accordion>
      )}
    </div>
  );
}
