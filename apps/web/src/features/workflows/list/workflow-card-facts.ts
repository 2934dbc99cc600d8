// What a workflow card shows (docs/product-rules.md): its agent count and its last run.
import type { Execution } from '@crewline/contracts';

/** Nodes of type 'agent' are the workflow's agents. */
export function countAgents(nodes: readonly { type?: string | null }[] | null | undefined): number {
  if (!Array.isArray(nodes)) return 0;
  return nodes.filter((node) => node?.type === 'agent').length;
}

/** '1 agent', '2 agents', '0 agents'. */
export function agentCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'agent' : 'agents'}`;
}

/** The newest execution (by createdAt, descending) of a workflow, or null: the card's Last Result. */
export function latestExecutionOf<T extends Pick<Execution, 'workflowId' | 'createdAt'>>(
  executions: readonly T[] | null | undefined,
  workflowId: string,
): T | null {
  let latest: T | null = null;
  let latestTime = -Infinity;
  for (const execution of executions ?? []) {
    if (execution.workflowId !== workflowId) continue;
    const time = Date.parse(execution.createdAt);
    const value = Number.isNaN(time) ? -Infinity : time;
    if (latest === null || value > latestTime) {
      latest = execution;
      latestTime = value;
    }
  }
  return latest;
}
