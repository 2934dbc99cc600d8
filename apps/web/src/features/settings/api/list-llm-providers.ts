import { useQuery } from '@tanstack/react-query';

import { normalizeProviderModels, type ProviderModels } from '../connections';
import { settingsKeys } from './keys';

/** GET /api/llm/providers, as model lists per provider; built-in lists stand in while it loads or fails. */
export function useProviderModels() {
  return useQuery<unknown, Error, ProviderModels>({
    queryKey: settingsKeys.providers,
    staleTime: 5 * 60 * 1000,
    select: normalizeProviderModels,
  });
}
