import { History, Plus, Workflow as WorkflowIcon } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { CardGrid, CardGridSkeleton, NoMatchesState } from '@/components/card-grid';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ResultCount } from '@/components/result-count';
import { runsOfPages } from '@/lib/execution-pages';
import { RUN_DETAILS_PARAM } from '@/lib/run-links';
import { useExecutionPages } from '@/features/runs/use-execution-pages';
import { useExecutions } from '@/lib/queries/executions';
import { useWorkflows } from '@/lib/queries/workflows';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useRunFeed } from '@/lib/runs/run-store';

import { ExecutionFiltersBar } from '@/features/runs/execution-filters';
import {
  filtersFromSearch,
  hasExecutionFilters,
  listRequestOf,
  searchFor,
  tabFromSearch,
  type ExecutionFilters,
  type WorkflowsPageTab,
} from '@/features/runs/execution-filter-params';
import { EXECUTIONS_LIST_DEFAULT_LIMIT } from '@/features/runs/execution-facts';
import { ExecutionsTab, SKELETON_COUNT } from '@/features/runs/executions-tab';
import { LinkedRunDialog } from '@/features/runs/linked-run-dialog';
import { WorkflowCard, WorkflowCardSkeleton } from '../list/workflow-card';
import { latestExecutionOf } from '../list/workflow-card-facts';
import { WorkflowFiltersBar } from '../list/workflow-filters';
import {
  DEFAULT_WORKFLOW_FILTERS,
  filterWorkflows,
  hasActiveFilters,
  type WorkflowFilters,
} from '../list/workflow-list-filters';

/**
 * The run list the Executions tab shows, a page at a time: the newest runs, or the server's answer
 * for the filters. A filter change starts again from its first page (a new key).
 */
function useExecutionsTabRuns(filters: ExecutionFilters) {
  const request = useMemo(() => listRequestOf(filters), [filters]);
  const query = useExecutionPages(request);
  const runs = useMemo(() => runsOfPages(query.data?.pages), [query.data]);
  return { query, runs };
}

/**
 * /workflows — 'Workflows' with its Workflows and Executions tabs (docs/product-rules.md). The open tab
 * and the Executions tab's filters live in the address, so reload, share, back and forward keep them.
 */
export function WorkflowsPage() {
  useDocumentTitle('Workflows');
  const workflows = useWorkflows();
  const executions = useExecutions();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabFromSearch(searchParams);
  const search = searchParams.toString();
  const executionFilters = useMemo(() => filtersFromSearch(new URLSearchParams(search)), [search]);
  const filteringRuns = hasExecutionFilters(executionFilters);
  const { query: runPages, runs } = useExecutionsTabRuns(executionFilters);
  // The runs' step events, heard while the page is open (lib/runs): a run's first step starts with
  // the run itself, often before its card shows it running.
  useRunFeed();
  const navigate = (nextTab: WorkflowsPageTab, nextFilters: ExecutionFilters) =>
    setSearchParams((current) => searchFor(nextTab, nextFilters, current));
  const [filters, setFilters] = useState<WorkflowFilters>(DEFAULT_WORKFLOW_FILTERS);
  // A link to one run's details (lib/run-links.ts): they open over the page until closed.
  const linkedRun = searchParams.get(RUN_DETAILS_PARAM);
  const closeLinkedRun = useCallback(
    () =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(RUN_DETAILS_PARAM);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const all = workflows.data;
  const visible = useMemo(() => filterWorkflows(all ?? [], filters), [all, filters]);
  const filtering = hasActiveFilters(filters);
  // A full first page may leave out older runs: Last Result then asks the server per workflow.
  const mayHaveOlderRuns = (executions.data?.length ?? 0) >= EXECUTIONS_LIST_DEFAULT_LIMIT;

  let content;
  if (workflows.isLoading) {
    content = (
      <CardGridSkeleton label="Loading workflows" count={SKELETON_COUNT} skeleton={WorkflowCardSkeleton} />
    );
  } else if (workflows.isError || !all) {
    content = (
      <LoadErrorState
        icon={WorkflowIcon}
        title="Could not load workflows"
        onRetry={() => void workflows.refetch()}
        className="py-16"
      />
    );
  } else if (visible.length === 0 && filtering) {
    content = <NoMatchesState title="No workflows found" />;
  } else if (visible.length === 0) {
    content = (
      <EmptyState
        icon={WorkflowIcon}
        title="No workflows created yet"
        description="Create your first workflow to automate complex multi-agent tasks"
        action={
          <Button asChild>
            <Link to="/workflows/new">
              <Plus aria-hidden="true" />
              Create Your First Workflow
            </Link>
          </Button>
        }
        className="py-16"
      />
    );
  } else {
    content = (
      <>
        <ResultCount shown={visible.length} total={all.length} noun="workflow" filtering={filtering} />
        <CardGrid label="Workflows" items={visible}>
          {(workflow) => (
            <WorkflowCard
              workflow={workflow}
              lastExecution={latestExecutionOf(executions.data, workflow.id)}
              mayHaveOlderRuns={mayHaveOlderRuns}
            />
          )}
        </CardGrid>
      </>
    );
  }

  return (
    <PageContainer className="space-y-6">
      <PageHeader
        title="Workflows"
        description="Build and manage multi-agent automation workflows"
        actions={
          <Button asChild>
            <Link to="/workflows/new">
              <Plus aria-hidden="true" />
              Create Workflow
            </Link>
          </Button>
        }
      />
      <Tabs
        value={tab}
        onValueChange={(value) => navigate(value as WorkflowsPageTab, executionFilters)}
        className="gap-5"
      >
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="workflows" className="px-4">
            <WorkflowIcon aria-hidden="true" />
            Workflows
          </TabsTrigger>
          <TabsTrigger value="executions" className="px-4">
            <History aria-hidden="true" />
            Executions
          </TabsTrigger>
        </TabsList>
        <TabsContent value="workflows" className="space-y-5">
          <WorkflowFiltersBar filters={filters} onChange={setFilters} />
          <section aria-label="Workflow list" className="space-y-4">
            {content}
          </section>
        </TabsContent>
        <TabsContent value="executions" className="space-y-5">
          <ExecutionFiltersBar
            filters={executionFilters}
            workflows={all}
            onChange={(next) => navigate('executions', next)}
          />
          <ExecutionsTab
            executions={runPages.data ? runs : undefined}
            isLoading={runPages.isLoading}
            // A failed Load more keeps the runs shown; the tab says so under them.
            isError={runPages.isError && !runPages.data}
            onRetry={() => void runPages.refetch()}
            more={{
              // Not while another filter's first page loads: the runs shown are the previous filter's.
              hasMore: runPages.hasNextPage && !runPages.isPlaceholderData,
              loading: runPages.isFetchingNextPage,
              failed: runPages.isFetchNextPageError,
              load: () => void runPages.fetchNextPage(),
            }}
            workflows={all}
            filtering={filteringRuns}
          />
        </TabsContent>
      </Tabs>
      {linkedRun && (
        <LinkedRunDialog key={linkedRun} runId={linkedRun} workflows={all} onClose={closeLinkedRun} />
      )}
    </PageContainer>
  );
}
