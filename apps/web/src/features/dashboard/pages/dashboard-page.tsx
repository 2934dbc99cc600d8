import { Plus, Workflow } from 'lucide-react';
import { Link } from 'react-router';

import { PageContainer, PageHeader } from '@/components/page-header';
import { SystemStatusCard } from '@/components/system-status-card';
import { Button } from '@/components/ui/button';
import { useOrganizationStats } from '@/lib/queries/organizations';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { QuickActions } from '../components/quick-actions';
import { RecentActivityCard } from '../components/recent-activity-card';
import { RecentTabs } from '../components/recent-tabs';
import { StatCards } from '../components/stat-cards';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { organizationId } = useAuth();
  const stats = useOrganizationStats(organizationId);

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader
        title="Dashboard"
        description="Manage your AI agents and workflows"
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/agents">
                <Plus aria-hidden="true" />
                Create Agent
              </Link>
            </Button>
            <Button asChild>
              <Link to="/workflows">
                <Workflow aria-hidden="true" />
                New Workflow
              </Link>
            </Button>
          </>
        }
      />

      <StatCards
        stats={stats.data}
        isLoading={stats.isLoading}
        isError={stats.isError}
        onRetry={() => void stats.refetch()}
      />

      {/* grid-cols-1 and min-w-0: a long name wraps or truncates instead of widening the page on a phone. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <section aria-label="Recent items" className="min-w-0 lg:col-span-2">
          <RecentTabs />
        </section>
        <aside className="grid min-w-0 grid-cols-1 content-start gap-6 sm:grid-cols-2 lg:grid-cols-1">
          <QuickActions />
          <SystemStatusCard />
          <RecentActivityCard organizationId={organizationId} />
        </aside>
      </div>
    </PageContainer>
  );
}
