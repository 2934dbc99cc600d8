// The kinds of workflow nodes, declared once: adding a kind is one file here (its data and label),
// one in packages/engine/src/node-kinds (its validation and executor) and one in the web builder's
// node-kinds (its canvas node, icon and panel). docs/decisions/0034-node-kind-registry.md.
import { agentNodeKind } from './agent';
import { endNodeKind } from './end';
import { startNodeKind } from './start';

export { nodeDataSchema, type NodeKindDefinition } from './data';

/** Every kind, in the order validation reports them (Start, End, then the steps). */
export const nodeKindList = [startNodeKind, endNodeKind, agentNodeKind] as const;

export type NodeKind = (typeof nodeKindList)[number]['kind'];

/** The kinds' wire names, for enums. */
export const nodeKindValues = nodeKindList.map((k) => k.kind) as [NodeKind, ...NodeKind[]];

/** Each kind's definition by its name. */
export const nodeKinds = Object.fromEntries(nodeKindList.map((k) => [k.kind, k])) as {
  [K in NodeKind]: Extract<(typeof nodeKindList)[number], { kind: K }>;
};

export function isNodeKind(value: unknown): value is NodeKind {
  return typeof value === 'string' && Object.hasOwn(nodeKinds, value);
}
