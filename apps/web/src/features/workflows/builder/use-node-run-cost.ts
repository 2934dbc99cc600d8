// What a step of the run shown on the canvas cost, for its node's run mark. The realtime events that
// mark the nodes carry tokens but no cost: the cost is the step's stored usage, read from the run's
// details once they are cached (the run panel and the details read them). Nothing is fetched here.
import type { Execution } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';

import { queryKeys } from '@/lib/queries/keys';

import { useRunProgressStore } from './run-progress';

/** The node's own step's cost in USD (null: its model had no price); undefined while unknown or without one. */
export function useNodeRunCost(nodeId: string): number | null | undefined {
  const executionId = useRunProgressStore((s) => s.executionId);
  const select = useCallback(
    (execution: Execution) =>
      execution.id === executionId ? execution.output[nodeId]?.usage.costUsd : undefined,
    [executionId, nodeId],
  );
  return useQuery<Execution, Error, number | null | undefined>({
    queryKey: queryKeys.executions.detail(executionId ?? ''),
    enabled: false,
    select,
  }).data;
}
