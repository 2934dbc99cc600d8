import type { AnalyticsRange } from '@crewline/contracts';
import { BarChart3, Download, RefreshCw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';

import { LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadJson } from '@/lib/download';
import { useAnalytics, useOrganizationStats } from '@/lib/queries/organizations';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';

import { analyticsFileName, DEFAULT_RANGE, isAnalyticsRange } from '../analytics-figures';
import { useRefreshAnalytics } from '../api/refresh';
import { AgentsTab } from '../components/agents-tab';
import { AnalyticsSkeleton } from '../components/analytics-skeleton';
import { CostsSkeleton } from '../components/costs-skeleton';
import { MetricCards } from '../components/metric-cards';
import { OverviewTab } from '../components/overview-tab';
import { PerformanceTab } from '../components/performance-tab';
import { RangeSelect } from '../components/range-select';
import { WorkflowsTab } from '../components/workflows-tab';

// Loaded when the tab opens: its request goes through the endpoint descriptors (zod and the
// contracts), which the other tabs do without.
const CostsTab = lazy(() =>
  import('../components/costs-tab').then((module) => ({ default: module.CostsTab })),
);

const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'agents', label: 'Agents' },
  { value: 'workflows', label: 'Workflows' },
  { value: 'performance', label: 'Performance' },
  { value: 'costs', label: 'Costs' },
] as const;

/**
 * /analytics — how the organization's agents and workflows perform over a chosen period. The range
 * is kept in the address (?days=24|30|90; 7 is the default and left out), so a reload or a shared
 * link shows the same period.
 */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const { organizationId } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const days = searchParams.get('days') ?? '';
  const range: AnalyticsRange = isAnalyticsRange(days) ? days : DEFAULT_RANGE;
  const setRange = (next: AnalyticsRange) =>
    setSearchParams(next === DEFAULT_RANGE ? {} : { days: next }, { replace: true });
  const analytics = useAnalytics(organizationId, range);
  const stats = useOrganizationStats(organizationId);
  const { refreshing, refresh } = useRefreshAnalytics(organizationId);

  const data = analytics.data;
  // While another range loads, the previous one stays on screen, dimmed, and cannot be exported.
  const switching = analytics.isPlaceholderData;

  let content;
  if (analytics.isLoading || stats.isLoading) {
    content = <AnalyticsSkeleton />;
  } else if (!data || !stats.data) {
    content = (
      <LoadErrorState
        icon={BarChart3}
        title="Could not load analytics"
        onRetry={() => {
          void analytics.refetch();
          void stats.refetch();
        }}
        className="py-16"
      />
    );
  } else {
    content = (
      <div
        className={cn('space-y-6 transition-opacity', switching && 'opacity-60')}
        aria-busy={switching || undefined}
      >
        {(analytics.isError || stats.isError) && (
          <p className="rounded-lg border border-amber-500/30 bg-amber-500/10 px-4 py-2.5 text-sm text-amber-800 dark:text-amber-300">
            The latest figures could not be loaded; these are the last ones received.
          </p>
        )}
        <MetricCards stats={stats.data} analytics={data} />
        <Tabs defaultValue="overview" className="gap-4">
          {/* The five tabs share the row; on a phone too narrow for them it scrolls. */}
          <TabsList className="flex w-full justify-start overflow-x-auto sm:inline-flex sm:w-fit">
            {TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value} className="px-1.5 text-xs sm:px-4 sm:text-sm">
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="overview">
            <OverviewTab analytics={data} />
          </TabsContent>
          <TabsContent value="agents">
            <AgentsTab analytics={data} />
          </TabsContent>
          <TabsContent value="workflows">
            <WorkflowsTab analytics={data} />
          </TabsContent>
          <TabsContent value="performance">
            <PerformanceTab analytics={data} />
          </TabsContent>
          <TabsContent value="costs">
            <Suspense fallback={<CostsSkeleton />}>
              <CostsTab range={range} />
            </Suspense>
          </TabsContent>
        </Tabs>
      </div>
    );
  }

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader
        title="Analytics"
        description="Monitor the performance of your agents and workflows"
        actions={
          <>
            <RangeSelect value={range} onChange={setRange} />
            <Button variant="outline" onClick={() => void refresh()} disabled={refreshing}>
              <RefreshCw className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
              Refresh
            </Button>
            <Button
              variant="outline"
              disabled={!data || switching}
              onClick={() => data && downloadJson(analyticsFileName(data.range.days), data)}
            >
              <Download aria-hidden="true" />
              Export
            </Button>
          </>
        }
      />
      {content}
    </PageContainer>
  );
}
