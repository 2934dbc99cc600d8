import type { ToolConfiguration } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from '@/lib/queries/keys';

/** GET /api/tools/configurations — the organization's connections (secrets masked). */
export function useToolConfigurations() {
  return useQuery<ToolConfiguration[]>({ queryKey: queryKeys.toolConfigurations, staleTime: 30_000 });
}
