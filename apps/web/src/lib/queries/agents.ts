// GET /api/agents and /api/agents/:id: one cache entry each for the agents pages, the dashboard
// and the builder's Agents tab.
import type { Agent } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** Agents are re-read when a screen showing them opens and the copy is older than this. */
const AGENTS_STALE_TIME = 30_000;

export function useAgents() {
  return useQuery<Agent[]>({ queryKey: queryKeys.agents.all, staleTime: AGENTS_STALE_TIME });
}

export function useAgent(id: string | undefined) {
  return useQuery<Agent>({
    queryKey: queryKeys.agents.detail(id ?? ''),
    enabled: !!id,
    staleTime: AGENTS_STALE_TIME,
  });
}
