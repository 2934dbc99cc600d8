// An MCP server connection's tools: read them again from the server, and which of them the
// organization allows (`config.enabledTools`, every tool when absent).
import type { McpToolList, Tool } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { mcpKeys } from '@/lib/mcp-keys';

import { allowedToolsAfter } from '../mcp-server-tools';

/** POST /api/tools/:id/mcp-refresh → the list as just read (or the reason it could not be). */
export function useRefreshMcpTools(toolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(endpoints.tools.mcpRefresh, { params: { id: toolId } }),
    onSuccess: (list) => queryClient.setQueryData<McpToolList>(mcpKeys.tools(toolId), list),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Could not read the server’s tools.'),
      }),
  });
}

/**
 * The Allowed switch: PUT /api/tools/:id with the tool's config and the new `enabledTools` (masked
 * credentials go back as they came, which keeps them). Optimistic on the tool list, rolled back on failure.
 */
export function useSetMcpToolAllowed(tool: Tool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ all, name, allowed }: { all: readonly string[]; name: string; allowed: boolean }) => {
      const config = { ...tool.config };
      const enabledTools = allowedToolsAfter(all, tool.config, name, allowed);
      if (enabledTools) config.enabledTools = enabledTools;
      else delete config.enabledTools;
      return api.call(endpoints.tools.update, { params: { id: tool.id }, body: { config } });
    },
    onMutate: async ({ all, name, allowed }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.tools, exact: true });
      const previous = queryClient.getQueryData<Tool[]>(queryKeys.tools);
      queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) =>
        list?.map((item) => {
          if (item.id !== tool.id) return item;
          const config = { ...item.config };
          const enabledTools = allowedToolsAfter(all, item.config, name, allowed);
          if (enabledTools) config.enabledTools = enabledTools;
          else delete config.enabledTools;
          return { ...item, config };
        }),
      );
      return { previous };
    },
    onSuccess: (saved) =>
      queryClient.setQueryData<Tool[]>(queryKeys.tools, (list) =>
        list?.map((item) => (item.id === saved.id ? saved : item)),
      ),
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.tools, context.previous);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to update tool.'),
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.tools, exact: true }),
  });
}
