import type { KnowledgeSearchInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-call';

/** POST /api/knowledge-bases/:id/search: the closest chunks to a query, best first. */
export function useKnowledgeSearch(id: string) {
  return useMutation({
    mutationFn: (input: KnowledgeSearchInput) =>
      api.call(endpoints.knowledge.search, { params: { id }, body: input }),
  });
}
