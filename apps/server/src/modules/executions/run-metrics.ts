import { costOfSteps, type Execution } from '@crewline/contracts';

/**
 * The figures of a run that ended without completing (failed or cancelled), counted from the steps it
 * completed (its output map), as a completed run's are: the tokens and cost of its own model calls (a retry's
 * reused steps were paid for by the run it retried), its steps, and the time from start to end.
 * Other runs keep what they stored (a completed run's own figures; nothing while one runs).
 */
export function withEndedRunMetrics(execution: Execution): Execution {
  const ended = execution.status === 'failed' || execution.status === 'cancelled';
  if (!ended || execution.metrics.steps !== undefined) return execution;
  const steps = Object.values(execution.output);
  const own = steps.filter((step) => step.metadata.reused !== true);
  const sum = (key: 'promptTokens' | 'completionTokens' | 'totalTokens') =>
    own.reduce((total, step) => total + step.usage[key], 0);
  const start = execution.startedAt ? Date.parse(execution.startedAt) : null;
  const end = execution.completedAt ? Date.parse(execution.completedAt) : null;
  return {
    ...execution,
    metrics: {
      ...execution.metrics,
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      totalTokens: sum('totalTokens'),
      ...costOfSteps(own),
      steps: steps.length,
      reusedSteps: steps.length - own.length,
      ...(start !== null && end !== null ? { durationMs: Math.max(0, end - start) } : {}),
    },
  };
}
