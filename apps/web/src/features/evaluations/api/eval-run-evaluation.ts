// One evaluation as its page reads it (with its graders and schedule), and its deletion with its runs.
// Beside api/evaluations.ts (the list, create, change) because only the evaluation page uses them.
import type { Evaluation } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { evaluationKeys } from '@/lib/evaluation-keys';

export function useEvaluation(id: string) {
  const queryClient = useQueryClient();
  return useQuery<Evaluation>({
    queryKey: evaluationKeys.evaluation(id),
    enabled: !!id,
    staleTime: 30_000,
    // The list's copy shows at once while the page reads its own.
    placeholderData: () =>
      queryClient
        .getQueryData<Evaluation[]>(evaluationKeys.evaluationList())
        ?.find((evaluation) => evaluation.id === id),
  });
}

export function useDeleteEvaluation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.evaluations.remove, { params: { id } }),
    onSuccess: (_data, { id, name }) => {
      queryClient.setQueryData<Evaluation[]>(evaluationKeys.evaluationList(), (list) =>
        list?.filter((evaluation) => evaluation.id !== id),
      );
      queryClient.removeQueries({ queryKey: evaluationKeys.evaluation(id) });
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluationList() });
      toast({ title: 'Evaluation deleted', description: `"${name}" and its runs were deleted.` });
    },
    onError: (error) => {
      // 409: a workflow's activation gate names it.
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to delete the evaluation'),
      });
    },
  });
}
