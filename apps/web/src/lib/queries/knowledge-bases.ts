// GET /api/knowledge-bases: the organization's knowledge bases, for the Knowledge page and the tool
// form (a vector store tool searches one of them).
import type { KnowledgeBase } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

export function useKnowledgeBases(options: { enabled?: boolean } = {}) {
  return useQuery<KnowledgeBase[]>({
    queryKey: queryKeys.knowledgeBases.all,
    enabled: options.enabled,
    staleTime: 30_000,
  });
}
