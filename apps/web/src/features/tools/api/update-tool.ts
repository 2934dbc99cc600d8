import type { CreateToolInput, Tool } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';

import { toolPath } from './tool-path';

/** PUT /api/tools/:id with the same body as create → Tool. */
export function useUpdateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CreateToolInput }) =>
      apiRequest<Tool>('PUT', toolPath(id), input),
    onSuccess: (tool, { id }) => {
      if (tool?.id) {
        queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) =>
          list?.map((item) => (item.id === id ? tool : item)),
        );
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools });
    },
  });
}
