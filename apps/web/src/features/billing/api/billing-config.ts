// GET /api/billing/config (which payment provider collects, and Stripe's publishable key) and
// POST /api/billing/setup-intent (Stripe only, owners: a SetupIntent secret for a new card).
import type { BillingConfigResponse } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
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
    mutationFn: () => api.call(endpoints.billing.setupIntent),
  });
}
