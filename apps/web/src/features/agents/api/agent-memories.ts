// An agent's memories (its Advanced tab): the list with its search, forget one, forget all. Runs add
// memories as their steps end, so the list is read afresh when shown and after each step or run.
import type { AgentMemories, AgentMemory } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { useRealtimeEvent } from '@/lib/realtime';

import { memoryExcerpt } from '../agent-memory-display';

/** The newest memories matching `search` (all when blank); the previous answer stays while the next loads. */
export function useAgentMemories(agentId: string, search: string) {
  return useQuery<AgentMemories>({
    queryKey: queryKeys.agents.memorySearch(agentId, search),
    enabled: !!agentId,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** While the memories are shown: a step or run that ended may have taught the agent something. */
export function useMemoriesFollowRuns(agentId: string) {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.agents.memories(agentId) }),
    [agentId, queryClient],
  );
  useRealtimeEvent(['execution_node_completed', 'workflow_execution_completed'], refresh);
}

/** Every cached list of the agent's memories, changed by `update`. */
function updateLists(
  queryClient: QueryClient,
  agentId: string,
  update: (list: AgentMemories) => AgentMemories,
) {
  queryClient.setQueriesData<AgentMemories>({ queryKey: queryKeys.agents.memories(agentId) }, (list) =>
    list ? update(list) : list,
  );
}

export function useForgetMemory(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memory: Pick<AgentMemory, 'id' | 'content'>) =>
      api.call(endpoints.memory.forget, { params: { id: agentId, memoryId: memory.id } }),
    onSuccess: (_data, memory) => {
      updateLists(queryClient, agentId, (list) =>
        list.memories.some((item) => item.id === memory.id)
          ? { memories: list.memories.filter((item) => item.id !== memory.id), total: list.total - 1 }
          : list,
      );
      toast({ title: 'Memory Forgotten', description: `"${memoryExcerpt(memory.content)}" was forgotten.` });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to forget this memory'),
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.agents.memories(agentId) }),
  });
}

export function useForgetAllMemories(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (_vars: { agentName: string }) =>
      api.call(endpoints.memory.forgetAll, { params: { id: agentId } }),
    onSuccess: (_data, { agentName }) => {
      updateLists(queryClient, agentId, () => ({ memories: [], total: 0 }));
      toast({
        title: 'Memories Forgotten',
        description: `${agentName} remembers nothing from earlier runs.`,
      });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to forget the memories'),
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.agents.memories(agentId) }),
  });
}
