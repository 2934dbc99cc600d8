// GET /api/subscription-status: the organization's plan, trial, usage and limits (Billing tab,
// /subscribe). A subscription_updated event makes it stale; the billing mutations refresh it too.
import type { SubscriptionStatusResponse } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

export function useSubscription() {
  return useQuery<SubscriptionStatusResponse>({ queryKey: queryKeys.subscription, retry: false });
}
