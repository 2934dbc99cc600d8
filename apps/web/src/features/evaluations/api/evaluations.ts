// The organization's evaluations: the list (with each one's last run), create and change. Every read
// sits under evaluationKeys.evaluations.
import type { CreateEvaluationInput, Evaluation } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import type { updateEvaluationSchema } from '@crewline/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { evaluationKeys } from '@/lib/evaluation-keys';

const STALE_TIME = 30_000;

export function useEvaluations() {
  return useQuery<Evaluation[]>({ queryKey: evaluationKeys.evaluationList(), staleTime: STALE_TIME });
}

export type UpdateEvaluationInput = z.input<typeof updateEvaluationSchema>;

function useSaved(verb: 'created' | 'saved') {
  const queryClient = useQueryClient();
  return (evaluation: Evaluation | null) => {
    if (evaluation) queryClient.setQueryData(evaluationKeys.evaluation(evaluation.id), evaluation);
    void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluations });
    toast({ title: `Evaluation ${verb}`, description: evaluation ? `"${evaluation.name}"` : undefined });
  };
}

export function useCreateEvaluation() {
  const onSuccess = useSaved('created');
  return useMutation({
    mutationFn: (body: CreateEvaluationInput) => api.call(endpoints.evaluations.create, { body }),
    onSuccess,
  });
}

export function useUpdateEvaluation() {
  const onSuccess = useSaved('saved');
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateEvaluationInput }) =>
      api.call(endpoints.evaluations.update, { params: { id }, body }),
    onSuccess,
  });
}
