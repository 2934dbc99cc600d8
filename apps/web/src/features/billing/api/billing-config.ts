// GET /api/billing/config (which payment provider collects, and Stripe's publishable key) and
// POST /api/billing/setup-intent (Stripe only, owners: a SetupIntent secret for a new card).
import type { BillingConfigResponse, SetupIntentResponse } from '@crewline/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

/** The server's billing configuration; it only changes with a restart of the server. */
export function useBillingConfig() {
  return useQuery<BillingConfigResponse>({
    queryKey: queryKeys.billingConfig,
    retry: false,
    staleTime: Infinity,
  });
}

/** Stripe's publishable key when Stripe collects payments, else null (the 'none' provider). */
export function stripePublishableKey(config: BillingConfigResponse | undefined): string | null {
  return config?.provider === 'stripe' && config.publishableKey ? config.publishableKey : null;
}

export function useCreateSetupIntent() {
  return useMutation({
    mutationFn: () => apiRequest<SetupIntentResponse>('POST', '/api/billing/setup-intent'),
  });
}
