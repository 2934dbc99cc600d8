import type { CreateToolInput, Tool } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { mcpKeys } from '@/lib/mcp-keys';

/** PUT /api/tools/:id with the same body as create → Tool. */
export function useUpdateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CreateToolInput }) =>
      api.call(endpoints.tools.update, { params: { id }, body: input }),
    onSuccess: (tool, { id }) => {
      if (tool?.id) {
        queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) =>
          list?.map((item) => (item.id === id ? tool : item)),
        );
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools });
      // An MCP connection's new URL or Authentication changes what it lists and whether it is signed in.
      if (tool?.category === 'mcp') void queryClient.invalidateQueries({ queryKey: mcpKeys.tools(id) });
    },
  });
}
