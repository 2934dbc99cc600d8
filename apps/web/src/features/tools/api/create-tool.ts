import type { CreateToolInput, Tool } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

/** POST /api/tools → 201 Tool. The new tool is shown at once, then the list is re-read. */
export function useCreateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateToolInput) => apiRequest<Tool>('POST', '/api/tools', input),
    onSuccess: (tool) => {
      if (tool?.id) {
        queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) => (list ? [tool, ...list] : list));
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools });
    },
  });
}
