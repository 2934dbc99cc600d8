import type { OrganizationBudget, UpdateOrganizationBudget } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/**
 * PUT /api/organization/budget (admins and owners): a monthly cap, or null for none. The answer is
 * the budget as it now stands, so the card and the banner show it at once; it is read again too,
 * since spend may have moved meanwhile.
 */
export function useSetBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationBudget) => api.call(endpoints.costs.setBudget, { body }),
    onSuccess: (budget: OrganizationBudget) => {
      queryClient.setQueryData(queryKeys.organizationBudget, budget);
      return queryClient.invalidateQueries({ queryKey: queryKeys.organizationBudget });
    },
  });
}
