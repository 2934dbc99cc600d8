// Read-only queries of the dashboard. Keys are the request paths (joined with '/' by the default
// query function), so another feature that changes agents, workflows or executions refreshes these
// lists by invalidating the same keys: ['/api/agents'], ['/api/workflows'], ['/api/executions'].
import type { ActivityItem, Agent, ExecutionSummary, OrganizationStats, Workflow } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

/** The dashboard re-reads data older than this when it is opened again. */
const DASHBOARD_STALE_TIME = 30_000;

export const dashboardKeys = {
  stats: (orgId: string) => ['/api/organizations', orgId, 'stats'] as const,
  activity: (orgId: string) => ['/api/organizations', orgId, 'activity'] as const,
  agents: ['/api/agents'] as const,
  workflows: ['/api/workflows'] as const,
  executions: ['/api/executions'] as const,
};

export function useOrganizationStats(orgId: string) {
  return useQuery<OrganizationStats>({
    queryKey: dashboardKeys.stats(orgId),
    staleTime: DASHBOARD_STALE_TIME,
  });
}

export function useOrganizationActivity(orgId: string) {
  return useQuery<{ items: ActivityItem[] }>({
    queryKey: dashboardKeys.activity(orgId),
    staleTime: DASHBOARD_STALE_TIME,
  });
}

export function useAgents() {
  return useQuery<Agent[]>({ queryKey: dashboardKeys.agents, staleTime: DASHBOARD_STALE_TIME });
}

export function useWorkflows() {
  return useQuery<Workflow[]>({ queryKey: dashboardKeys.workflows, staleTime: DASHBOARD_STALE_TIME });
}

export function useExecutions() {
  return useQuery<ExecutionSummary[]>({
    queryKey: dashboardKeys.executions,
    staleTime: DASHBOARD_STALE_TIME,
  });
}
