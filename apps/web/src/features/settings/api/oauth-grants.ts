import type { OAuthGrant } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { mcpKeys } from '@/lib/mcp-keys';

/** GET /api/oauth/grants: the apps connected to the organization's MCP server (a member sees their own). */
export function useOAuthGrants() {
  return useQuery<OAuthGrant[]>({ queryKey: mcpKeys.oauthGrants });
}

/** DELETE /api/oauth/grants/:id: the app's tokens stop working at once. */
export function useRevokeOAuthGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.oauth.revokeGrant, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mcpKeys.oauthGrants }),
  });
}
