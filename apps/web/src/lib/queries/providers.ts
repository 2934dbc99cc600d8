// GET /api/llm/providers: the models each provider offers, read by the agent form and the settings'
// connections. Each caller picks its own view of the answer with `select`.
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** The provider catalogue is cached for 5 minutes (docs/product-rules.md). */
const PROVIDERS_STALE_TIME = 5 * 60 * 1000;

/** `select` must be a stable function (a module-level one), or the view is rebuilt every render. */
export function useProviders<T>(select: (raw: unknown) => T) {
  return useQuery<unknown, Error, T>({
    queryKey: queryKeys.providers,
    staleTime: PROVIDERS_STALE_TIME,
    select,
  });
}
