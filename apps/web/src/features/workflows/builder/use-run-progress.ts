import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { useExecutions } from '@/lib/queries/executions';
import { useRealtimeEvent, useWatchWorkflow } from '@/lib/realtime';
import { readRunDetailsOnce } from '@/lib/runs/run-details';
import { useRunFeed } from '@/lib/runs/run-store';

import { newestRunInProgress, SHOWN_RUN_EVENTS, useRunProgressStore } from './run-progress';

const progressEvents = [...SHOWN_RUN_EVENTS];

/**
 * Follows the runs of `workflowId` while the builder shows it, and forgets them on leave. The run
 * shown is chosen from the realtime events, its marks are its state in lib/runs; a run already in
 * progress when the builder opens is seeded from the executions list (the same cache entry as the
 * workflows page, refreshed by the events), and its details are read once for the steps it finished.
 */
export function useFollowWorkflowRuns(workflowId: string | null): void {
  const follow = useRunProgressStore((s) => s.follow);
  const apply = useRunProgressStore((s) => s.apply);
  const seed = useRunProgressStore((s) => s.seed);
  const queryClient = useQueryClient();

  useEffect(() => {
    follow(workflowId);
    return () => follow(null);
  }, [follow, workflowId]);

  // The runs' states (marks, steps) and the choice of the run shown, from the same events.
  useRunFeed();
  useRealtimeEvent(progressEvents, apply);
  // The builder shows its runs' steps as they are written (the run panel): their answers stream.
  useWatchWorkflow(workflowId);

  const executions = useExecutions({ enabled: !!workflowId });
  useEffect(() => {
    if (!workflowId || !executions.data) return;
    // Summaries carry no steps' output: the seed marks the run in progress, the events its steps.
    const summaries = executions.data.map((summary) => ({ ...summary, output: {} }));
    const run = newestRunInProgress(summaries, workflowId);
    if (!run) return;
    seed(run);
    // The steps it finished before the builder opened send no more events (a waiting run sends
    // none at all): its details say which they are.
    if (useRunProgressStore.getState().executionId === run.id) readRunDetailsOnce(queryClient, run);
  }, [executions.data, workflowId, seed, queryClient]);
}
