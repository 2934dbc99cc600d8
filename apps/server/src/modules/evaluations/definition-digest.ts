import { createHash } from 'node:crypto';
import type { Workflow } from '@crewline/contracts';

/** JSON with object keys in order, so the same value always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What a run of a workflow definition does, as a hash: its process type, its nodes (without their
 * place on the canvas), its edges and its settings (without the activation gate, which says how it
 * is released, not what it does). Two definitions with the same digest run alike, so the activation
 * gate finds an eval run of the candidate by it, and a snapshot of the working copy is taken once.
 */
export function definitionDigest(
  workflow: Pick<Workflow, 'processType' | 'nodes' | 'edges' | 'config'>,
): string {
  const { activationGate: _gate, ...config } = (workflow.config ?? {}) as Record<string, unknown>;
  const nodes = workflow.nodes.map(({ position: _position, ...node }) => node);
  return createHash('sha256')
    .update(canonical({ processType: workflow.processType, nodes, edges: workflow.edges, config }))
    .digest('hex');
}
