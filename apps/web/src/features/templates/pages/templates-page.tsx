import type { AgentTemplate, WorkflowTemplate } from '@crewline/contracts';
import { Bot, LayoutTemplate, SearchX, Workflow as WorkflowIcon } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { ResultCount } from '@/components/result-count';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';

import { useCreateFromAgentTemplate, useCreateFromWorkflowTemplate, useTemplates } from '../api/templates';
import { FeaturedTemplatesSkeleton, FeaturedTemplatesStrip } from '../components/featured-templates';
import { SeedTemplatesAlert } from '../components/seed-templates-alert';
import {
  AgentTemplateCard,
  AgentTemplateCardSkeleton,
  WorkflowTemplateCard,
  WorkflowTemplateCardSkeleton,
} from '../components/template-cards';
import { CategoryChips, TemplateFiltersBar } from '../components/template-filters';
import { AgentTemplatePreview, WorkflowTemplatePreview } from '../components/template-previews';
import {
  categoriesOf,
  DEFAULT_TEMPLATE_FILTERS,
  featuredTemplates,
  filterTemplates,
  missingLibrary,
  type TemplateFilters,
} from '../template-library';

/** Skeleton cards while the templates load. */
const WORKFLOW_SKELETONS = 4;
const AGENT_SKELETONS = 6;

const WORKFLOW_GRID = 'grid gap-4 md:grid-cols-2 xl:grid-cols-3 lg:gap-5';
const AGENT_GRID = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3 lg:gap-5';

type Tab = 'workflows' | 'agents';

// On a phone both tabs share one row: no icons, a little smaller.
const TAB = 'group px-4 max-sm:px-1.5 max-sm:text-[13px] max-sm:[&>svg]:hidden';

/** A preview dialog's state: the template stays while the dialog fades out. */
type Preview<T> = { template: T | null; open: boolean };

function TabCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <span className="rounded-full bg-muted-foreground/10 px-1.5 text-xs text-muted-foreground tabular-nums group-data-[state=active]:bg-primary/10 group-data-[state=active]:text-primary">
      {count}
    </span>
  );
}

/** /templates — 'Template Marketplace' (docs/product-rules.md, Templates). */
export function TemplatesPage() {
  useDocumentTitle('Template Marketplace');
  const navigate = useNavigate();
  const [filters, setFilters] = useState<TemplateFilters>(DEFAULT_TEMPLATE_FILTERS);
  const [tab, setTab] = useState<Tab>('workflows');
  const templates = useTemplates(filters.sort);
  const createWorkflow = useCreateFromWorkflowTemplate();
  const createAgent = useCreateFromAgentTemplate();
  const [workflowPreview, setWorkflowPreview] = useState<Preview<WorkflowTemplate>>({
    template: null,
    open: false,
  });
  const [agentPreview, setAgentPreview] = useState<Preview<AgentTemplate>>({ template: null, open: false });
  // A 402 plan_limit of Use Template: the reason and 'Upgrade', inside the template's preview.
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  // The landing page's Use Template signs up with `template=<id>` and lands here: that one opens.
  const [searchParams, setSearchParams] = useSearchParams();
  const [linked, setLinked] = useState(() => searchParams.get('template'));

  const data = templates.data;
  const workflows = useMemo(() => data?.workflows ?? [], [data]);
  if (linked && data) {
    setLinked(null);
    const template = data.workflows.find((w) => w.id === linked);
    if (template) setWorkflowPreview({ template, open: true });
  }
  const agents = useMemo(() => data?.agents ?? [], [data]);
  const categories = useMemo(() => categoriesOf([...workflows, ...agents]), [workflows, agents]);
  const visibleWorkflows = useMemo(() => filterTemplates(workflows, filters), [workflows, filters]);
  const visibleAgents = useMemo(() => filterTemplates(agents, filters), [agents, filters]);
  const featured = useMemo(() => featuredTemplates(workflows), [workflows]);
  const missing = data ? missingLibrary(data) : null;
  const searching = filters.search.trim() !== '' || filters.category !== DEFAULT_TEMPLATE_FILTERS.category;
  const busy = createWorkflow.isPending || createAgent.isPending;
  const usingWorkflowId = createWorkflow.isPending ? createWorkflow.variables?.id : undefined;
  const usingAgentId = createAgent.isPending ? createAgent.variables?.id : undefined;

  const previewWorkflow = (template: WorkflowTemplate) => {
    setPlanLimit(null);
    setWorkflowPreview({ template, open: true });
  };
  const previewAgent = (template: AgentTemplate) => {
    setPlanLimit(null);
    setAgentPreview({ template, open: true });
  };

  const startFromWorkflow = (template: WorkflowTemplate) => {
    setPlanLimit(null);
    createWorkflow.mutate(template, {
      onSuccess: () => void navigate('/workflows'),
      onError: (error) => {
        const limit = readPlanLimitError(error);
        if (!limit) return;
        setPlanLimit(limit);
        setWorkflowPreview({ template, open: true });
      },
    });
  };
  const startFromAgent = (template: AgentTemplate) => {
    setPlanLimit(null);
    createAgent.mutate(template, {
      onSuccess: () => void navigate('/agents'),
      onError: (error) => {
        const limit = readPlanLimitError(error);
        if (!limit) return;
        setPlanLimit(limit);
        setAgentPreview({ template, open: true });
      },
    });
  };

  function listContent<T extends { id: string }>(options: {
    all: readonly T[];
    visible: readonly T[];
    noun: string;
    skeletons: number;
    grid: string;
    emptyIcon: typeof Bot;
    emptyTitle: string;
    renderCard: (template: T) => ReactNode;
    renderSkeleton: (index: number) => ReactNode;
  }) {
    if (templates.isLoading) {
      return (
        <div className={options.grid} aria-busy="true" aria-label={`Loading ${options.noun}s`}>
          {Array.from({ length: options.skeletons }, (_, i) => options.renderSkeleton(i))}
        </div>
      );
    }
    if (templates.isError || !data) {
      return (
        <LoadErrorState
          icon={LayoutTemplate}
          title="Could not load templates"
          onRetry={() => void templates.refetch()}
          className="py-16"
        />
      );
    }
    if (options.visible.length === 0 && searching) {
      return (
        <EmptyState
          icon={SearchX}
          title="No templates found"
          description="Try adjusting your search or category to find what you're looking for"
          className="py-16"
        />
      );
    }
    if (options.visible.length === 0) {
      return (
        <EmptyState
          icon={options.emptyIcon}
          title={options.emptyTitle}
          description="Load the sample templates to start from proven workflows and agents."
          className="py-16"
        />
      );
    }
    return (
      <>
        <ResultCount
          shown={options.visible.length}
          total={options.all.length}
          noun={options.noun}
          filtering={searching}
        />
        <ul
          className={cn(options.grid, 'transition-opacity', templates.isPlaceholderData && 'opacity-60')}
          aria-label={`${options.noun[0]!.toUpperCase()}${options.noun.slice(1)}s`}
          aria-busy={templates.isPlaceholderData}
        >
          {options.visible.map((template) => (
            <li key={template.id} className="min-w-0">
              {options.renderCard(template)}
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <PageContainer className="space-y-6">
      <PageHeader
        title="Template Marketplace"
        description="Start from proven workflows and agents for common business tasks, then make them your own"
      />

      {missing?.any && <SeedTemplatesAlert missing={missing} />}

      {templates.isLoading ? (
        <FeaturedTemplatesSkeleton />
      ) : (
        <FeaturedTemplatesStrip featured={featured} onPreview={previewWorkflow} />
      )}

      <div className="space-y-3">
        <TemplateFiltersBar filters={filters} onChange={setFilters} />
        <CategoryChips
          categories={categories}
          value={filters.category}
          onChange={(category) => setFilters((current) => ({ ...current, category }))}
        />
      </div>

      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="gap-5">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="workflows" className={TAB}>
            <WorkflowIcon aria-hidden="true" />
            Workflow Templates
            <TabCount count={data ? visibleWorkflows.length : undefined} />
          </TabsTrigger>
          <TabsTrigger value="agents" className={TAB}>
            <Bot aria-hidden="true" />
            Agent Templates
            <TabCount count={data ? visibleAgents.length : undefined} />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="workflows">
          <section aria-label="Workflow templates" className="space-y-4">
            {listContent({
              all: workflows,
              visible: visibleWorkflows,
              noun: 'workflow template',
              skeletons: WORKFLOW_SKELETONS,
              grid: WORKFLOW_GRID,
              emptyIcon: WorkflowIcon,
              emptyTitle: 'No workflow templates yet',
              renderSkeleton: (i) => <WorkflowTemplateCardSkeleton key={i} />,
              renderCard: (template) => (
                <WorkflowTemplateCard
                  template={template}
                  onPreview={() => previewWorkflow(template)}
                  onUse={() => startFromWorkflow(template)}
                  using={usingWorkflowId === template.id}
                  disabled={busy}
                />
              ),
            })}
          </section>
        </TabsContent>
        <TabsContent value="agents">
          <section aria-label="Agent templates" className="space-y-4">
            {listContent({
              all: agents,
              visible: visibleAgents,
              noun: 'agent template',
              skeletons: AGENT_SKELETONS,
              grid: AGENT_GRID,
              emptyIcon: Bot,
              emptyTitle: 'No agent templates yet',
              renderSkeleton: (i) => <AgentTemplateCardSkeleton key={i} />,
              renderCard: (template) => (
                <AgentTemplateCard
                  template={template}
                  onPreview={() => previewAgent(template)}
                  onUse={() => startFromAgent(template)}
                  using={usingAgentId === template.id}
                  disabled={busy}
                />
              ),
            })}
          </section>
        </TabsContent>
      </Tabs>

      <WorkflowTemplatePreview
        template={workflowPreview.template}
        open={workflowPreview.open}
        onOpenChange={(open) => {
          setWorkflowPreview((current) => ({ ...current, open }));
          if (!open && searchParams.has('template')) {
            setSearchParams(
              (current) => {
                current.delete('template');
                return current;
              },
              { replace: true },
            );
          }
        }}
        onUse={startFromWorkflow}
        using={usingWorkflowId !== undefined && usingWorkflowId === workflowPreview.template?.id}
        disabled={busy}
        planLimit={planLimit}
      />
      <AgentTemplatePreview
        template={agentPreview.template}
        open={agentPreview.open}
        onOpenChange={(open) => setAgentPreview((current) => ({ ...current, open }))}
        onUse={startFromAgent}
        using={usingAgentId !== undefined && usingAgentId === agentPreview.template?.id}
        disabled={busy}
        planLimit={planLimit}
      />
    </PageContainer>
  );
}
