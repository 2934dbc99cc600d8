import type { Tool } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** DELETE /api/tools/:id → 204. Agent tool links go with it, so agent lists are re-read too. */
export function useDeleteTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.tools.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) => list?.filter((tool) => tool.id !== id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools });
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all });
    },
  });
}
