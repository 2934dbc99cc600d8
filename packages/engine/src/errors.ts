/** A run that cannot go on for a reason of the workflow itself (a deleted agent, no agent to run). */
export class WorkflowRunError extends Error {}

/** Why a run cannot start: nothing to run after its start node. */
export const noStep = 'The workflow has no agent connected to its start node';

/**
 * Thrown by a wait port (`RunPorts.waits`) once the run's wait is stored: the run stops at that step,
 * holding no worker, and resumes in a later attempt, which reuses every finished step and asks the
 * port again (docs/product-rules.md, People in the loop). Never a failure: no step or item keeps it.
 */
export class RunWaiting extends Error {
  constructor(readonly stepId: string) {
    super(`The run waits at step "${stepId}"`);
  }
}
