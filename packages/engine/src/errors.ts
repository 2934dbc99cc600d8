/** A run that cannot go on for a reason of the workflow itself (a deleted agent, no agent to run). */
export class WorkflowRunError extends Error {}
