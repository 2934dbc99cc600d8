import type { Analytics, AnalyticsRange } from '@crewline/contracts';
import { coalescing } from '../../platform/coalescing';
import type { AnalyticsPresenter } from './analytics.presenter';
import type { OrganizationsPresenter } from './organizations.presenter';

const ACTIVITY_LIMIT = 5;
const TOP_AGENTS_LIMIT = 5;
/** Agent Utilization lists the busiest agents; an organization with hundreds needs no more on one page. */
const UTILIZATION_LIMIT = 20;

const HOUR_MS = 3_600_000;

export function createOrganizationsService(
  repository: OrganizationsPresenter,
  analytics: AnalyticsPresenter,
) {
  // Dashboards of one organization open at the same moment share a summary computed after they asked.
  const sharedSummary = coalescing<Analytics>();
  return {
    stats: (organizationId: string) => repository.stats(organizationId),
    activity: async (organizationId: string) => ({
      items: await repository.recentActivity(organizationId, ACTIVITY_LIMIT),
    }),

    /**
     * The range ending when the summary starts (`24` is the last 24 hours, else days), compared with
     * the period before it. Identical requests made while one is computed share the next computation.
     */
    analytics: (organizationId: string, days: AnalyticsRange, timeZone: string): Promise<Analytics> =>
      sharedSummary(`${organizationId} ${days} ${timeZone}`, async () => {
        const length = (days === '24' ? 24 : Number(days) * 24) * HOUR_MS;
        const to = new Date();
        const from = new Date(to.getTime() - length);
        const summary = await analytics.summary(
          organizationId,
          { previousFrom: new Date(from.getTime() - length), from, to },
          timeZone,
          UTILIZATION_LIMIT,
        );
        const { current, agents } = summary;
        return {
          range: { days, from: from.toISOString(), to: to.toISOString() },
          current,
          previous: summary.previous,
          dailyExecutions: summary.dailyExecutions,
          topAgents: agents.filter((a) => a.executions > 0).slice(0, TOP_AGENTS_LIMIT),
          agents,
          workflows: summary.workflows,
          performance: {
            ...summary.performance,
            avgTokensPerExecution:
              current.executions === 0 ? 0 : Math.round(current.totalTokens / current.executions),
          },
        };
      }),
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
