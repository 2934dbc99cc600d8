// The last finished run of the workflow open in the builder, whole (its output map), for the
// expression fields' "Last run" values. Requests kept minimal: the organization's newest runs are
// already read by the builder (use-run-progress.ts) and kept current by the realtime events; only when
// none of them is this workflow's is its newest run asked for (once), and the run's details are read
// once per run (a finished run does not change what its steps gave).
import type { Execution, ExecutionSummary } from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';
import { useQuery } from '@tanstack/react-query';

import { useExecutions } from '@/lib/queries/executions';
import { queryKeys } from '@/lib/queries/keys';

import { useBuilderStore } from './store';

const finishedRunOf = (runs: readonly ExecutionSummary[] | undefined, workflowId: string | null) =>
  runs?.find((run) => run.workflowId === workflowId && !isRunActive(run.status));

/** The last finished run (completed, failed or cancelled) of the open workflow; undefined until known or when none. */
export function useLastRun(): Execution | undefined {
  const workflowId = useBuilderStore((s) => s.workflowId);
  // Newest first (the server's order).
  const newest = useExecutions({ enabled: !!workflowId });
  const listed = finishedRunOf(newest.data, workflowId);
  const own = useQuery<ExecutionSummary[]>({
    queryKey: queryKeys.executions.list({ workflowId: workflowId ?? '', limit: 1 }),
    enabled: !!workflowId && !!newest.data && !newest.data.some((run) => run.workflowId === workflowId),
    staleTime: Infinity,
  });
  const runId = listed?.id ?? finishedRunOf(own.data, workflowId)?.id;
  const details = useQuery<Execution>({
    queryKey: queryKeys.executions.detail(runId ?? ''),
    enabled: !!runId,
    staleTime: Infinity,
  });
  return runId && details.data?.id === runId ? details.data : undefined;
}
