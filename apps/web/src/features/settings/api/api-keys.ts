import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from '@crewline/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

/** GET /api/organizations/:orgId/api-keys: the live keys, newest first (owners and admins only). */
export function useApiKeys(orgId: string, enabled: boolean) {
  return useQuery<ApiKey[]>({
    queryKey: queryKeys.organizations.apiKeys(orgId),
    enabled: enabled && !!orgId,
  });
}

/** POST /api/organizations/:orgId/api-keys: the answer holds the key itself, shown only this once. */
export function useCreateApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyInput) =>
      apiRequest<CreatedApiKey>('POST', `/api/organizations/${orgId}/api-keys`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.apiKeys(orgId) }),
  });
}

/** DELETE /api/organizations/:orgId/api-keys/:id: the key stops working at once. */
export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', `/api/organizations/${orgId}/api-keys/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.apiKeys(orgId) }),
  });
}
