// Read-only queries of the analytics page. Keys are request paths: every key under
// ['/api/organizations', orgId] is refetched by lib/realtime-invalidation on a run's or an agent's
// event, and the run named by a run's event is patched into ['/api/executions'] (lib/execution-summaries),
// which is how the page follows new runs live. The stats and executions
// keys are the dashboard's, so both screens share one cache entry.
import type { Analytics, AnalyticsRange, ExecutionSummary, OrganizationStats } from '@crewline/contracts';
import { keepPreviousData, useQuery, type QueryFunction } from '@tanstack/react-query';

import { apiRequest, queryKeyToPath } from '@/lib/api';

const ANALYTICS_STALE_TIME = 30_000;

type AnalyticsParams = { days: AnalyticsRange; tz: string };

export const analyticsKeys = {
  /** The parameters sit in the last part, an object: the path is /api/organizations/{orgId}/analytics. */
  analytics: (orgId: string, params: AnalyticsParams) =>
    ['/api/organizations', orgId, 'analytics', params] as const,
  stats: (orgId: string) => ['/api/organizations', orgId, 'stats'] as const,
  executions: ['/api/executions'] as const,
};

/** The viewer's IANA time zone: the chart's days are their calendar days. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** GET {path}?days=…&tz=… (the default query function sends no query string). */
const fetchAnalytics: QueryFunction<Analytics, ReturnType<typeof analyticsKeys.analytics>> = ({
  queryKey,
  signal,
}) => {
  const { days, tz } = queryKey[3];
  const search = new URLSearchParams({ days, tz });
  return apiRequest<Analytics>('GET', `${queryKeyToPath(queryKey)}?${search}`, undefined, { signal });
};

/** GET /api/organizations/:orgId/analytics; the previous range stays on screen while another loads. */
export function useAnalytics(orgId: string, days: AnalyticsRange) {
  return useQuery({
    queryKey: analyticsKeys.analytics(orgId, { days, tz: browserTimeZone() }),
    queryFn: fetchAnalytics,
    enabled: !!orgId,
    staleTime: ANALYTICS_STALE_TIME,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/organizations/:orgId/stats: agent and workflow counts of the metric cards. */
export function useOrganizationStats(orgId: string) {
  return useQuery<OrganizationStats>({
    queryKey: analyticsKeys.stats(orgId),
    enabled: !!orgId,
    staleTime: ANALYTICS_STALE_TIME,
  });
}

/** GET /api/executions: the Recent Activity list. */
export function useExecutions() {
  return useQuery<ExecutionSummary[]>({
    queryKey: analyticsKeys.executions,
    staleTime: ANALYTICS_STALE_TIME,
  });
}
