import type { OAuthConsentInfo, OAuthConsentInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { mcpKeys } from '@/lib/mcp-keys';

/** GET /api/oauth/consent: the app asking, if it is registered with this redirect address. */
export function useConsentInfo(query: { clientId: string; redirectUri: string } | null) {
  return useQuery<OAuthConsentInfo>({
    queryKey: mcpKeys.oauthConsent(query ?? { clientId: '', redirectUri: '' }),
    enabled: query !== null,
    retry: false,
  });
}

/** POST /api/oauth/consent: Allow or Deny; the answer is where the browser goes back to. */
export function useConsent() {
  return useMutation({
    mutationFn: (body: OAuthConsentInput) => api.call(endpoints.oauth.consent, { body }),
  });
}

/** Leaves the app for the client's redirect address (a seam the tests replace). */
export const browser = {
  leave: (url: string) => window.location.assign(url),
};
