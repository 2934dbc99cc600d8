// A chat app's conversations, for its admins in the builder (Settings → Chat app → Conversations):
// GET /api/workflows/:id/chat-threads (newest first), one thread's messages, and DELETE of one
// (owners and admins; its runs stay in the run history). Their keys sit under the workflow's, built by
// endpointKey as lib/queries/keys.ts builds every key, so a change of the workflow re-reads them.
import type { ChatThread, ChatThreadSummary } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import * as paths from '@crewline/contracts/paths';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { endpointKey } from '@/lib/queries/endpoint-key';

const chatThreadKeys = {
  list: (id: string) => endpointKey(paths.chat.adminThreads, { id }),
  thread: (id: string, threadId: string) => endpointKey(paths.chat.adminThread, { id, threadId }),
};

export function useChatThreads(workflowId: string, enabled: boolean) {
  return useQuery<ChatThreadSummary[]>({
    queryKey: chatThreadKeys.list(workflowId),
    enabled,
    staleTime: 10_000,
  });
}

export function useChatThread(workflowId: string, threadId: string | null) {
  return useQuery<ChatThread>({
    queryKey: chatThreadKeys.thread(workflowId, threadId ?? ''),
    enabled: !!threadId,
    staleTime: 10_000,
  });
}

export function useDeleteChatThread(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threadId: string) =>
      api.call(endpoints.chat.deleteThread, { params: { id: workflowId, threadId } }),
    onSuccess: (_answer, threadId) => {
      queryClient.setQueryData<ChatThreadSummary[]>(chatThreadKeys.list(workflowId), (list) =>
        list?.filter((thread) => thread.id !== threadId),
      );
      queryClient.removeQueries({ queryKey: chatThreadKeys.thread(workflowId, threadId) });
      void queryClient.invalidateQueries({ queryKey: chatThreadKeys.list(workflowId) });
    },
  });
}
