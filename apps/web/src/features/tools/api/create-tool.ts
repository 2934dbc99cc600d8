import type { CreateToolInput, Tool } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** POST /api/tools → 201 Tool. The new tool is shown at once, then the list is re-read. */
export function useCreateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateToolInput) => api.call(endpoints.tools.create, { body: input }),
    onSuccess: (tool) => {
      if (tool?.id) {
        queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) => (list ? [tool, ...list] : list));
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools });
    },
  });
}
