// GET /api/billing/invoices: the organization's invoices, for owners and admins (View History in the
// Billing tab). Fetched only while the history is open; a subscription_updated event makes it stale.
import type { InvoicesResponse } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

export function useInvoices(options: { enabled: boolean }) {
  return useQuery<InvoicesResponse>({
    queryKey: queryKeys.billingInvoices,
    enabled: options.enabled,
    retry: false,
  });
}
