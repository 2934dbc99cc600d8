// GET /api/executions/:id for the execution-details dialog. The key starts with '/api/executions',
// so the realtime provider's invalidation on execution events refreshes it; node progress of this
// run refreshes it too, and without a live connection an active run is polled.
import type { Execution, RealtimeEvent } from '@crewline/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { useRealtimeEvent, useRealtimeStatus } from '@/lib/realtime';

import { isExecutionActive } from '../list/execution-logic';

export const executionKey = (id: string) => ['/api/executions', id] as const;

/** While a run is active and the live connection is down, re-read it this often. */
const FALLBACK_POLL_MS = 3000;

const NODE_EVENTS = ['execution_node_started', 'execution_node_completed'] as const;

export function useExecution(id: string, options: { enabled: boolean; placeholder?: Execution }) {
  const queryClient = useQueryClient();
  const live = useRealtimeStatus() === 'open';

  const onNodeEvent = useCallback(
    (event: RealtimeEvent) => {
      if (options.enabled && 'executionId' in event && event.executionId === id) {
        void queryClient.invalidateQueries({ queryKey: executionKey(id), exact: true });
      }
    },
    [id, options.enabled, queryClient],
  );
  useRealtimeEvent([...NODE_EVENTS], onNodeEvent);

  return useQuery<Execution>({
    queryKey: executionKey(id),
    enabled: options.enabled && !!id,
    // The list's copy shows at once; the dialog always reads the run afresh when it opens.
    placeholderData: options.placeholder,
    staleTime: 0,
    refetchInterval: (query) =>
      !live && isExecutionActive(query.state.data?.status ?? options.placeholder?.status)
        ? FALLBACK_POLL_MS
        : false,
  });
}
