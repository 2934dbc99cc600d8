// GET /api/executions (run summaries, newest first) and GET /api/executions/:id (one whole run). The
// realtime events patch the one run they name into every cached list (lib/execution-summaries.ts),
// so the lists follow runs live without refetching.
import type { Execution, ExecutionSummary, RealtimeEvent } from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { useRealtimeEvent, useRealtimeStatus } from '../realtime';
import { queryKeys } from './keys';

/** The lists are re-read when a screen showing them opens and the copy is older than this. */
const EXECUTIONS_STALE_TIME = 30_000;

/** While a run is active and the live connection is down, its details are re-read this often. */
const FALLBACK_POLL_MS = 3000;

const NODE_EVENTS = [
  'execution_node_started',
  'execution_node_completed',
  'execution_node_failed',
  'execution_node_skipped',
] as const;

/** The organization's newest runs (the server's default page): dashboard, analytics, workflows page, builder. */
export function useExecutions(options: { enabled?: boolean } = {}) {
  return useQuery<ExecutionSummary[]>({
    queryKey: queryKeys.executions.newest,
    enabled: options.enabled,
    staleTime: EXECUTIONS_STALE_TIME,
  });
}

/**
 * One whole run, for a details view: read afresh when it opens, then refreshed by the run's events
 * (its key is under queryKeys.executions.all) and by its node progress; without a live connection an
 * active run is polled.
 */
export function useExecution(id: string, options: { enabled: boolean; placeholder?: Execution }) {
  const queryClient = useQueryClient();
  const live = useRealtimeStatus() === 'open';

  const onNodeEvent = useCallback(
    (event: RealtimeEvent) => {
      if (options.enabled && 'executionId' in event && event.executionId === id) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.executions.detail(id), exact: true });
      }
    },
    [id, options.enabled, queryClient],
  );
  useRealtimeEvent([...NODE_EVENTS], onNodeEvent);

  return useQuery<Execution>({
    queryKey: queryKeys.executions.detail(id),
    enabled: options.enabled && !!id,
    // The list's copy shows at once; the view always reads the run afresh when it opens.
    placeholderData: options.placeholder,
    staleTime: 0,
    refetchInterval: (query) =>
      !live && isRunActive(query.state.data?.status ?? options.placeholder?.status)
        ? FALLBACK_POLL_MS
        : false,
  });
}

/** Reads one whole run now (Download Results from a list's summary). */
export function fetchExecution(queryClient: QueryClient, id: string): Promise<Execution> {
  return queryClient.fetchQuery<Execution>({ queryKey: queryKeys.executions.detail(id), staleTime: 0 });
}

/**
 * The newest run of one workflow (GET /api/executions?workflowId=…&limit=1), for a card's Last
 * Result when the newest runs of the organization may not reach back far enough.
 */
export async function fetchLatestExecution(
  queryClient: QueryClient,
  workflowId: string,
): Promise<ExecutionSummary | null> {
  const list = await queryClient.fetchQuery<ExecutionSummary[]>({
    queryKey: queryKeys.executions.list({ workflowId, limit: 1 }),
    staleTime: 0,
  });
  return list?.find((run) => run.workflowId === workflowId) ?? null;
}
