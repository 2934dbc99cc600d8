import type { Analytics } from '@crewline/contracts';

import { SystemStatusCard } from '@/components/system-status-card';

import { RecentActivityCard } from './recent-activity-card';
import { SuccessRateChart } from './success-rate-chart';

/** Overview: the 7-day chart with its summary, the live System Health and the latest runs. */
export function OverviewTab({ analytics }: { analytics: Analytics }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="min-w-0 lg:col-span-2">
        <SuccessRateChart analytics={analytics} />
      </div>
      <div className="grid content-start gap-6 sm:grid-cols-2 lg:grid-cols-1">
        <SystemStatusCard title="System Health" showDatabase />
        <RecentActivityCard />
      </div>
    </div>
  );
}
