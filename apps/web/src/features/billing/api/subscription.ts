// POST /api/create-subscription and /api/cancel-subscription. Without a payment provider the answer's
// clientSecret is null and no card is collected.
import type { BillingInterval, PlanId } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { intervalPrice } from '@/lib/billing-texts';

function useRefreshBilling() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    // The organization in the session carries the plan and trial end.
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
  };
}

/** A plan choice: the interval (monthly when absent) and, for Enterprise with Stripe, invoices. */
export type PlanChoice = { plan: PlanId; interval?: BillingInterval; payByInvoice?: boolean };

export function useCreateSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: (choice: PlanId | PlanChoice) => {
      const {
        plan,
        interval = 'month',
        payByInvoice,
      } = typeof choice === 'string' ? { plan: choice } : choice;
      return api.call(endpoints.billing.subscribe, {
        body: {
          planId: plan,
          interval,
          amount: intervalPrice(plan, interval).amountCents,
          ...(payByInvoice ? { payByInvoice } : {}),
        },
      });
    },
    onSuccess: refresh,
  });
}

export function useCancelSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: () => api.call(endpoints.billing.cancel),
    onSuccess: refresh,
  });
}
