// GET /api/tools: the organization's tools, listed on the tools page and offered by the agent's
// Connect Tool dialog (one cache entry).
import type { Tool } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** The list is re-read when a screen showing it opens and the copy is older than this. */
const TOOLS_STALE_TIME = 30_000;

export function useTools(options: { enabled?: boolean } = {}) {
  return useQuery<Tool[]>({
    queryKey: queryKeys.tools,
    enabled: options.enabled,
    staleTime: TOOLS_STALE_TIME,
  });
}
