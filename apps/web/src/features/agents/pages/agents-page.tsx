import { Bot, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';

import { CardGrid, CardGridSkeleton, NoMatchesState } from '@/components/card-grid';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { ResultCount } from '@/components/result-count';
import { useAgents } from '@/lib/queries/agents';
import { useDocumentTitle } from '@/lib/use-document-title';

import { DEFAULT_AGENT_FILTERS, filterAgents, hasActiveFilters, type AgentFilters } from '../agent-display';
import { AgentCard, AgentCardSkeleton } from '../components/agent-card';
import { AgentFiltersBar } from '../components/agent-filters';
import { CreateAgentDialog } from '../components/create-agent-dialog';

/** /agents — 'AI Agents'. */
export function AgentsPage() {
  useDocumentTitle('AI Agents');
  const agents = useAgents();
  const [filters, setFilters] = useState<AgentFilters>(DEFAULT_AGENT_FILTERS);
  const [createOpen, setCreateOpen] = useState(false);

  const all = agents.data;
  const visible = useMemo(() => filterAgents(all ?? [], filters), [all, filters]);
  const filtering = hasActiveFilters(filters);

  let content;
  if (agents.isLoading) {
    content = <CardGridSkeleton label="Loading agents" count={6} skeleton={AgentCardSkeleton} />;
  } else if (agents.isError || !all) {
    content = (
      <LoadErrorState icon={Bot} title="Could not load agents" onRetry={() => void agents.refetch()} />
    );
  } else if (visible.length === 0 && filtering) {
    content = <NoMatchesState title="No agents found" />;
  } else if (visible.length === 0) {
    content = (
      <EmptyState
        icon={Bot}
        title="No agents created yet"
        description="Create your first agent to give your crew a role, a goal and a model to work with."
        action={
          <Button onClick={() => setCreateOpen(true)}>
            <Plus aria-hidden="true" />
            Create Your First Agent
          </Button>
        }
        className="py-16"
      />
    );
  } else {
    content = (
      <>
        <ResultCount shown={visible.length} total={all.length} noun="agent" filtering={filtering} />
        <CardGrid label="Agents" items={visible}>
          {(agent) => <AgentCard agent={agent} />}
        </CardGrid>
      </>
    );
  }

  return (
    <PageContainer className="space-y-6">
      <PageHeader
        title="AI Agents"
        description="Create, configure and test the agents that power your workflows"
        actions={
          <Button onClick={() => setCreateOpen(true)}>
            <Plus aria-hidden="true" />
            Create Agent
          </Button>
        }
      />
      <AgentFiltersBar filters={filters} onChange={setFilters} />
      <section aria-label="Agent list" className="space-y-4">
        {content}
      </section>
      <CreateAgentDialog open={createOpen} onOpenChange={setCreateOpen} />
    </PageContainer>
  );
}
