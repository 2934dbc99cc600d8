import type { KnowledgeSearchInput, KnowledgeSearchResult } from '@crewline/contracts';
import { useMutation } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { searchApiPath } from './paths';

/** POST /api/knowledge-bases/:id/search: the closest chunks to a query, best first. */
export function useKnowledgeSearch(id: string) {
  return useMutation({
    mutationFn: (input: KnowledgeSearchInput) =>
      apiRequest<KnowledgeSearchResult>('POST', searchApiPath(id), input),
  });
}
