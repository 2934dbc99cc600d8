import type { ToolConfiguration } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { settingsKeys } from './keys';

/** GET /api/tools/configurations — the organization's connections (secrets masked). */
export function useToolConfigurations() {
  return useQuery<ToolConfiguration[]>({ queryKey: settingsKeys.toolConfigurations, staleTime: 30_000 });
}
