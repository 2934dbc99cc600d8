import type { ProcessType, WorkflowNode } from '@crewline/contracts';

export const SECONDS_PER_AGENT = 30;

/** Nodes of type agent are the workflow's agents. */
export function countAgentNodes(nodes: Pick<WorkflowNode, 'type'>[]): number {
  return nodes.filter((n) => n.type === 'agent').length;
}

/**
 * Estimated run time in seconds (docs/product-rules.md): sequential agents × 30; hierarchical the larger of
 * agents × 30 × 0.8 and 30; parallel 30.
 */
export function estimateSeconds(processType: ProcessType, agentCount: number): number {
  switch (processType) {
    case 'sequential':
      return agentCount * SECONDS_PER_AGENT;
    case 'hierarchical':
      return Math.max(agentCount * SECONDS_PER_AGENT * 0.8, SECONDS_PER_AGENT);
    case 'parallel':
      return SECONDS_PER_AGENT;
  }
}

/** The estimate as the builder's badge shows it: whole minutes, rounded. */
export function estimateMinutes(processType: ProcessType, agentCount: number): number {
  return Math.round(estimateSeconds(processType, agentCount) / 60);
}
