import type { Connection, ConnectionId } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

export interface UpdateConnectionInput {
  id: ConnectionId;
  body: { config?: Record<string, unknown>; isActive?: boolean };
}

/**
 * PUT /api/tools/configurations/:id with `{ config }` (Save) or only `{ isActive }` (the switch,
 * shown at once and rolled back if the server refuses). The model lists and the system status
 * depend on the connections, so they are re-read afterwards.
 */
export function useUpdateConnection() {
  const queryClient = useQueryClient();
  const key = queryKeys.connections;
  return useMutation({
    mutationFn: ({ id, body }: UpdateConnectionInput) =>
      api.call(endpoints.connections.update, { params: { id }, body }),
    onMutate: async ({ id, body }) => {
      if (body.isActive === undefined || body.config !== undefined) return { previous: undefined };
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Connection[]>(key);
      queryClient.setQueryData<Connection[]>(key, (list) => {
        if (!list) return list;
        const exists = list.some((item) => item.id === id);
        const isActive = body.isActive as boolean;
        return exists
          ? list.map((item) => (item.id === id ? { ...item, isActive } : item))
          : [...list, { id, config: {}, isActive, updatedAt: null }];
      });
      return { previous };
    },
    onSuccess: (saved, { id }) => {
      if (saved?.id) {
        queryClient.setQueryData<Connection[]>(key, (list) =>
          list?.some((item) => item.id === id)
            ? list.map((item) => (item.id === id ? saved : item))
            : [...(list ?? []), saved],
        );
      }
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: queryKeys.providers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.systemStatus });
    },
  });
}
