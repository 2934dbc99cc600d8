import type { Tool } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { toolKeys, toolPath } from './keys';

/** DELETE /api/tools/:id → 204. Agent tool links go with it, so agent lists are re-read too. */
export function useDeleteTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', toolPath(id)),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Tool[]>(toolKeys.all, (list) => list?.filter((tool) => tool.id !== id));
      void queryClient.invalidateQueries({ queryKey: toolKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['/api/agents'] });
    },
  });
}
