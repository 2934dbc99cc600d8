import { useEffect } from 'react';

import { useRealtimeEvent } from '@/lib/realtime';

import { RUN_PROGRESS_EVENTS, useRunProgressStore } from './run-progress';

const progressEvents = [...RUN_PROGRESS_EVENTS];

/** Follows the runs of `workflowId` while the builder shows it; forgets them on leave. */
export function useFollowWorkflowRuns(workflowId: string | null): void {
  const follow = useRunProgressStore((s) => s.follow);
  const apply = useRunProgressStore((s) => s.apply);
  useEffect(() => {
    follow(workflowId);
    return () => follow(null);
  }, [follow, workflowId]);
  useRealtimeEvent(progressEvents, apply);
}
