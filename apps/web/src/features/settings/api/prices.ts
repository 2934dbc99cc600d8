import type { ModelPrice, SetModelPrice } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** GET /api/prices (every member): the built-in prices with the organization's own over them. */
export function usePrices() {
  return useQuery<ModelPrice[]>({ queryKey: queryKeys.prices });
}

/** PUT /api/prices (admins and owners): the table is read again, as the own price may replace a built-in one. */
export function useSetPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (price: SetModelPrice) => api.call(endpoints.prices.set, { body: price }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.prices }),
  });
}

/** DELETE /api/prices/:provider/:model (admins and owners): the built-in price, if any, applies again. */
export function useRemovePrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ provider, model }: Pick<ModelPrice, 'provider' | 'model'>) =>
      api.call(endpoints.prices.remove, { params: { provider, model } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.prices }),
  });
}
