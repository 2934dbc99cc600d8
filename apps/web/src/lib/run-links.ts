// The address of one run's details: the Workflows page's Executions tab with that run's details open
// (features/workflows reads it; other screens link to it, e.g. the run an agent's memory came from).

/** The search parameter naming the run whose details are open. */
export const RUN_DETAILS_PARAM = 'run';

export function runDetailsPath(executionId: string): string {
  return `/workflows?tab=executions&${RUN_DETAILS_PARAM}=${encodeURIComponent(executionId)}`;
}
