// GET /api/agents for the builder's Agents tab. Same key as the agents page, so the cache is shared.
import type { Agent } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

export function useBuilderAgents() {
  return useQuery<Agent[]>({ queryKey: ['/api/agents'], staleTime: 30_000 });
}
