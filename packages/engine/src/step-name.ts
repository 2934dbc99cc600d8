import { nodeKinds, type NodeKind } from '@crewline/contracts';

const text = (node: { data?: Record<string, unknown> }, key: string) =>
  typeof node.data?.[key] === 'string' ? (node.data[key] as string).trim() : '';

/** An agent step as the canvas shows it: its label, else its agent's name (never the node's id). */
export const stepName = (node: { data?: Record<string, unknown> }) =>
  text(node, 'label') || text(node, 'name') || 'Untitled';

/** Any node as the canvas shows it: its label, else its kind's name (Condition, Transform, …). */
export const nodeName = (node: { type: NodeKind; data?: Record<string, unknown> }) =>
  node.type === 'agent' ? stepName(node) : text(node, 'label') || nodeKinds[node.type].label;
