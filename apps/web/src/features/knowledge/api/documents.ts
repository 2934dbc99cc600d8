// A knowledge base's documents: the list (newest first), pasted text and delete. Files go through
// use-document-uploads.ts. Each change re-reads the knowledge base and the list, whose counts and
// sizes follow the documents.
import type { AddKnowledgeDocumentInput, KnowledgeDocument } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { useRealtimeStatus } from '@/lib/realtime';

import { hasPendingDocuments } from '../knowledge-display';
import { FALLBACK_POLL_MS } from './knowledge-bases';

/** After a document was added or removed: its knowledge base's counts, the list's, the documents. */
export function refreshKnowledgeBase(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.knowledgeBases.detail(id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.knowledgeBases.all, exact: true });
}

/**
 * The documents of a knowledge base. Their status changes arrive as realtime events; while one is
 * queued or processing and the live connection is not open, the list is re-read every few seconds.
 */
export function useKnowledgeDocuments(id: string) {
  const live = useRealtimeStatus() === 'open';
  return useQuery<KnowledgeDocument[]>({
    queryKey: queryKeys.knowledgeBases.documents(id),
    enabled: !!id,
    staleTime: 0,
    refetchInterval: (query) => (!live && hasPendingDocuments(query.state.data) ? FALLBACK_POLL_MS : false),
  });
}

/** Paste text: one text/plain document. */
export function useAddTextDocument(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddKnowledgeDocumentInput) =>
      api.call(endpoints.knowledge.addDocument, { params: { id }, body: input }),
    onSuccess: (document, input) => {
      if (document?.id) {
        queryClient.setQueryData<KnowledgeDocument[]>(queryKeys.knowledgeBases.documents(id), (list) =>
          list ? [document, ...list.filter((item) => item.id !== document.id)] : list,
        );
      }
      refreshKnowledgeBase(queryClient, id);
      toast({ title: 'Text Added', description: `"${input.name}" is queued for processing.` });
    },
  });
}

export function useDeleteDocument(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: Pick<KnowledgeDocument, 'id' | 'name'>) =>
      api.call(endpoints.knowledge.removeDocument, { params: { id, docId: document.id } }),
    onSuccess: (_data, document) => {
      queryClient.setQueryData<KnowledgeDocument[]>(queryKeys.knowledgeBases.documents(id), (list) =>
        list?.filter((item) => item.id !== document.id),
      );
      refreshKnowledgeBase(queryClient, id);
      toast({ title: 'Document Deleted', description: `"${document.name}" and its chunks were removed.` });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to delete document'),
      });
    },
  });
}
