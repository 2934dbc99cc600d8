// The organization's figures: GET /api/organizations/:orgId/stats, /activity and /analytics. Every
// one of them sits under queryKeys.organizations.all, which lib/realtime-invalidation.ts and the
// mutations that change runs, agents or workflows invalidate.
import type { ActivityItem, Analytics, AnalyticsRange, OrganizationStats } from '@crewline/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** The figures are re-read when a screen showing them opens and the copy is older than this. */
const ORGANIZATION_STALE_TIME = 30_000;

/** The viewer's IANA time zone: the analytics chart's days are their calendar days. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Agent and workflow counts of the metric cards (dashboard and analytics share the entry). */
export function useOrganizationStats(orgId: string) {
  return useQuery<OrganizationStats>({
    queryKey: queryKeys.organizations.stats(orgId),
    enabled: !!orgId,
    staleTime: ORGANIZATION_STALE_TIME,
  });
}

export function useOrganizationActivity(orgId: string) {
  return useQuery<{ items: ActivityItem[] }>({
    queryKey: queryKeys.organizations.activity(orgId),
    enabled: !!orgId,
    staleTime: ORGANIZATION_STALE_TIME,
  });
}

/** GET …/analytics?days=…&tz=…; the previous range stays on screen while another loads. */
export function useAnalytics(orgId: string, days: AnalyticsRange) {
  return useQuery<Analytics>({
    queryKey: queryKeys.organizations.analytics(orgId, { days, tz: browserTimeZone() }),
    enabled: !!orgId,
    staleTime: ORGANIZATION_STALE_TIME,
    placeholderData: keepPreviousData,
  });
}
