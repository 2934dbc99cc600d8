import type { ApiKey, CreateApiKeyInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
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
    mutationFn: (body: CreateApiKeyInput) => api.call(endpoints.apiKeys.create, { params: { orgId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.apiKeys(orgId) }),
  });
}

/** DELETE /api/organizations/:orgId/api-keys/:id: the key stops working at once. */
export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.apiKeys.revoke, { params: { orgId, id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.apiKeys(orgId) }),
  });
}
