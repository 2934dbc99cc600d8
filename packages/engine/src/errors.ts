/** A run that cannot go on for a reason of the workflow itself (a deleted agent, no agent to run). */
export class WorkflowRunError extends Error {}

/** Why a run cannot start: nothing to run after its start node. */
export const noStep = 'The workflow has no agent connected to its start node';
