// The knowledge bases an agent searches: GET/PUT /api/agents/:id/knowledge-bases. Picking one links
// the agent to a vector-store tool on it, so the agent's tools, its card and the tool list change too.
import type { AgentKnowledgeBase, AgentKnowledgeBases } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

export function useAgentKnowledgeBases(agentId: string) {
  return useQuery<AgentKnowledgeBases, Error, AgentKnowledgeBase[]>({
    queryKey: queryKeys.agents.knowledgeBases(agentId),
    select: (answer) => answer.knowledgeBases,
  });
}

/** Sets the agent's knowledge bases, e.g. right after the create dialog made the agent. */
function saveAgentKnowledgeBases(agentId: string, knowledgeBaseIds: string[]) {
  return api.call(endpoints.agents.setKnowledgeBases, {
    params: { id: agentId },
    body: { knowledgeBaseIds },
  });
}

export function useSetAgentKnowledgeBases() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, knowledgeBaseIds }: { agentId: string; knowledgeBaseIds: string[] }) =>
      saveAgentKnowledgeBases(agentId, knowledgeBaseIds),
    onSuccess: (answer, { agentId }) => {
      queryClient.setQueryData(queryKeys.agents.knowledgeBases(agentId), answer);
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Could not save the knowledge bases.'),
      });
    },
    onSettled: (_answer, _error, { agentId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.knowledgeBases(agentId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.tools(agentId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all, exact: true });
      return queryClient.invalidateQueries({ queryKey: queryKeys.tools });
    },
  });
}
