// An evaluation's eval runs: the list, one run (polled while it runs), start, cancel, and the
// comparison of two. Keys from lib/evaluation-keys.ts; an eval run sends no realtime event, so the
// screens poll while something runs.
import type { EvalComparison, EvalRun, EvalRunSummary, StartEvalRunInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { clientErrorMessage } from '@/lib/client-error';
import { evaluationKeys } from '@/lib/evaluation-keys';

/** How often a running eval run's progress is read again. */
export const EVAL_RUN_POLL_MS = 1500;
/** How often an evaluation's runs are read again while one of them runs. */
const EVAL_RUNS_POLL_MS = 3000;

/** Newest first; polled while one of them runs. */
export function useEvalRuns(evaluationId: string) {
  return useQuery<EvalRunSummary[]>({
    queryKey: evaluationKeys.evaluationRuns(evaluationId),
    enabled: !!evaluationId,
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'running') ? EVAL_RUNS_POLL_MS : false,
  });
}

/** One eval run with its items; read every 1.5 s while it runs, and no more once it has ended. */
export function useEvalRun(id: string) {
  return useQuery<EvalRun>({
    queryKey: evaluationKeys.evalRun(id),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? EVAL_RUN_POLL_MS : false),
  });
}

export function useEvalComparison(a: string, b: string) {
  return useQuery<EvalComparison>({
    queryKey: evaluationKeys.comparison({ a, b }),
    enabled: !!a && !!b,
  });
}

export function useStartEvalRun(evaluationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartEvalRunInput) =>
      api.call(endpoints.evaluations.startRun, { params: { id: evaluationId }, body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluationRuns(evaluationId) });
    },
  });
}

export function useCancelEvalRun(run: { id: string; evaluationId: string }) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: evaluationKeys.evalRun(run.id) });
    void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluationRuns(run.evaluationId) });
  };
  return useMutation({
    mutationFn: () => api.call(endpoints.evaluations.cancelRun, { params: { id: run.id } }),
    onSuccess: () => {
      refresh();
      toast({ title: 'Eval run cancelled', description: 'Items not yet run are not run.' });
    },
    onError: (error) => {
      // 409: it ended meanwhile; show the server's word and the run as it is.
      refresh();
      toast({
        title: 'Could not cancel',
        description: clientErrorMessage(error) ?? 'Try again.',
        variant: 'destructive',
      });
    },
  });
}
