import type { Execution } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';

import { useRealtimeEvent } from '@/lib/realtime';

import { newestRunInProgress, RUN_PROGRESS_EVENTS, useRunProgressStore } from './run-progress';

const progressEvents = [...RUN_PROGRESS_EVENTS];

/**
 * Follows the runs of `workflowId` while the builder shows it, and forgets them on leave. Node marks
 * come from the realtime events; a run already in progress when the builder opens is seeded from
 * the executions list (the same cache entry as the workflows page, refreshed by the events).
 */
export function useFollowWorkflowRuns(workflowId: string | null): void {
  const follow = useRunProgressStore((s) => s.follow);
  const apply = useRunProgressStore((s) => s.apply);
  const seed = useRunProgressStore((s) => s.seed);

  useEffect(() => {
    follow(workflowId);
    return () => follow(null);
  }, [follow, workflowId]);

  useRealtimeEvent(progressEvents, apply);

  const executions = useQuery<Execution[]>({
    queryKey: ['/api/executions'],
    staleTime: 30_000,
    enabled: !!workflowId,
  });
  useEffect(() => {
    if (!workflowId || !executions.data) return;
    const run = newestRunInProgress(executions.data, workflowId);
    if (run) seed(run);
  }, [executions.data, workflowId, seed]);
}
