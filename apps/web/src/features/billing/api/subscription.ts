// POST /api/create-subscription and /api/cancel-subscription. There is no payment provider yet: the
// answer's clientSecret is null and no card is collected.
import type { PlanId, SubscriptionStatusValue } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

import { planAmountCents } from '@/lib/billing';

export type CreateSubscriptionAnswer = { clientSecret: string | null; status: SubscriptionStatusValue };

function useRefreshBilling() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    // The organization in the session carries the plan and trial end.
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
  };
}

export function useCreateSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: (planId: PlanId) =>
      apiRequest<CreateSubscriptionAnswer>('POST', '/api/create-subscription', {
        planId,
        amount: planAmountCents(planId),
      }),
    onSuccess: refresh,
  });
}

export function useCancelSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', '/api/cancel-subscription'),
    onSuccess: refresh,
  });
}
