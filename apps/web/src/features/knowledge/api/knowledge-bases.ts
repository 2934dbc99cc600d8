// The knowledge bases: the list (with each one's counts and size), one of them, create, rename and
// delete. The queries sit under queryKeys.knowledgeBases.all, which a document's realtime event
// refreshes (lib/realtime-invalidation.ts).
import type { CreateKnowledgeBaseInput, KnowledgeBase, UpdateKnowledgeBaseInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** Re-read when a screen showing them opens and the copy is older than this. */
const STALE_TIME = 30_000;

/** While documents are being ingested and the live connection is down, counts are re-read this often. */
export const FALLBACK_POLL_MS = 4000;

/** The list is shared with the tool form (lib/queries/knowledge-bases.ts). */
export { useKnowledgeBases } from '@/lib/queries/knowledge-bases';

/** One knowledge base; `poll` while its documents are still being ingested without a live connection. */
export function useKnowledgeBase(id: string, options: { poll?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useQuery<KnowledgeBase>({
    queryKey: queryKeys.knowledgeBases.detail(id),
    enabled: !!id,
    staleTime: STALE_TIME,
    // The list's copy shows at once while the page reads its own.
    placeholderData: () =>
      queryClient.getQueryData<KnowledgeBase[]>(queryKeys.knowledgeBases.all)?.find((base) => base.id === id),
    refetchInterval: options.poll ? FALLBACK_POLL_MS : false,
  });
}

export function useCreateKnowledgeBase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateKnowledgeBaseInput) => api.call(endpoints.knowledge.create, { body: input }),
    onSuccess: (base, input) => {
      if (base?.id) {
        queryClient.setQueryData(queryKeys.knowledgeBases.detail(base.id), base);
        queryClient.setQueryData<KnowledgeBase[]>(queryKeys.knowledgeBases.all, (list) =>
          list ? [base, ...list] : list,
        );
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.knowledgeBases.all, exact: true });
      toast({
        title: 'Knowledge Base Created',
        description: `"${base?.name ?? input.name}" is ready for documents.`,
      });
    },
  });
}

export function useUpdateKnowledgeBase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateKnowledgeBaseInput }) =>
      api.call(endpoints.knowledge.update, { params: { id }, body: input }),
    onSuccess: (base, { id }) => {
      if (base?.id) {
        queryClient.setQueryData(queryKeys.knowledgeBases.detail(id), base);
        queryClient.setQueryData<KnowledgeBase[]>(queryKeys.knowledgeBases.all, (list) =>
          list?.map((item) => (item.id === id ? base : item)),
        );
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.knowledgeBases.all, exact: true });
      toast({
        title: 'Knowledge Base Updated',
        description: `"${base?.name ?? 'Knowledge base'}" has been saved.`,
      });
    },
  });
}

export function useDeleteKnowledgeBase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.knowledge.remove, { params: { id } }),
    onSuccess: (_data, { id, name }) => {
      queryClient.setQueryData<KnowledgeBase[]>(queryKeys.knowledgeBases.all, (list) =>
        list?.filter((base) => base.id !== id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.knowledgeBases.detail(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.knowledgeBases.all, exact: true });
      toast({ title: 'Knowledge Base Deleted', description: `"${name}" and its documents were removed.` });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to delete knowledge base'),
      });
    },
  });
}
