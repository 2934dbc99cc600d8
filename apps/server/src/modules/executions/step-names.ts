import type { RunDefinition } from '@crewline/engine';
import { nodeName } from '@crewline/engine';

/**
 * A workflow's steps named as the engine names them in its own messages (its label, else its kind's:
 * 'Tool', 'Guardrail'), by node id; a step of no node is named by its id.
 */
export function stepNames(nodes: RunDefinition['nodes']): (nodeId: string) => string {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  return (nodeId) => {
    const node = byId.get(nodeId);
    return node ? nodeName(node) : nodeId;
  };
}
