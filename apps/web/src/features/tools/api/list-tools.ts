import type { Tool } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { toolKeys } from './keys';

/** GET /api/tools — the organization's tools, newest first. */
export function useTools() {
  return useQuery<Tool[]>({ queryKey: toolKeys.all, staleTime: 30_000 });
}
