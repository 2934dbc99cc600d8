// The kinds of workflow nodes, declared once: adding a kind is one file here (its data and label),
// one in packages/engine/src/node-kinds (its validation and executor) and one in the web builder's
// node-kinds (its canvas node, icon and panel). docs/decisions/0034-node-kind-registry.md.
import { agentNodeKind } from './agent';
import { approvalNodeKind } from './approval';
import { codeNodeKind } from './code';
import { conditionNodeKind } from './condition';
import { delayNodeKind } from './delay';
import { endNodeKind } from './end';
import { guardrailNodeKind } from './guardrail';
import { loopNodeKind } from './loop';
import { mapNodeKind } from './map';
import { mergeNodeKind } from './merge';
import { noteNodeKind } from './note';
import { startNodeKind } from './start';
import { toolNodeKind } from './tool';
import { transformNodeKind } from './transform';

export { kindData, nodeDataSchema, type NodeKindDefinition } from './data';
export { jsonSchemaObject, outputSchemaProblem } from './agent';
export { conditionBranchSchema, ELSE_BRANCH, type ConditionBranch } from './condition';
export { assignmentSchema } from './transform';
export { mergeModeValues } from './merge';
export { MAP_CONCURRENCY, MAP_MAX_ITEMS, onItemErrorValues } from './map';
export { LOOP_ITERATIONS } from './loop';
export * from './code';
export * from './guardrail';
export { runTargetSchema, type RunTarget } from './run-target';
export {
  APPROVAL_MAX_SECONDS,
  approvalAssigneesSchema,
  approvalFieldSchema,
  approvalFieldTypeValues,
  approvalPathValues,
  approvalPolicySchema,
  approvalRoleValues,
  approvalTimeoutSchema,
  type ApprovalAssignees,
  type ApprovalField,
  type ApprovalPath,
  type ApprovalPolicy,
  type ApprovalTimeout,
} from './approval';

/** Every kind, in the order validation reports them (Start, End, then the steps) and the palette lists them. */
export const nodeKindList = [
  startNodeKind,
  endNodeKind,
  agentNodeKind,
  conditionNodeKind,
  guardrailNodeKind,
  toolNodeKind,
  transformNodeKind,
  codeNodeKind,
  mapNodeKind,
  loopNodeKind,
  mergeNodeKind,
  approvalNodeKind,
  delayNodeKind,
  noteNodeKind,
] as const;

export type NodeKind = (typeof nodeKindList)[number]['kind'];

/** The kinds' wire names, for enums. */
export const nodeKindValues = nodeKindList.map((k) => k.kind) as [NodeKind, ...NodeKind[]];

/** Each kind's definition by its name. */
export const nodeKinds = Object.fromEntries(nodeKindList.map((k) => [k.kind, k])) as {
  [K in NodeKind]: Extract<(typeof nodeKindList)[number], { kind: K }>;
};

/** A kind's `data` as its schema reads it (its fields typed, defaults filled in). */
export type NodeKindData<K extends NodeKind> = ReturnType<(typeof nodeKinds)[K]['data']['parse']>;

export function isNodeKind(value: unknown): value is NodeKind {
  return typeof value === 'string' && Object.hasOwn(nodeKinds, value);
}

/** Whether a run executes nodes of this kind as recorded steps (not Start, End or a note). */
export const isStepKind = (kind: NodeKind): boolean => nodeKinds[kind]?.step === true;
