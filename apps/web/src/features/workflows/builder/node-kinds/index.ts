// The builder's side of each node kind (packages/contracts/src/node-kinds holds their labels and
// data): its canvas node, icon, minimap colour and Properties panel parts. The canvas and the panel
// dispatch through this registry, so adding a kind is one file here.
import type { NodeKind } from '@crewline/contracts';
import type { NodeTypes } from '@xyflow/react';

import type { BuilderNode } from '../types';
import { agentKind } from './agent';
import { approvalKind } from './approval';
import { codeKind } from './code';
import { conditionKind } from './condition';
import { delayKind } from './delay';
import { endKind } from './end';
import { guardrailKind } from './guardrail';
import { loopKind } from './loop';
import { mapKind } from './map';
import { mergeKind } from './merge';
import { noteKind } from './note';
import { startKind } from './start';
import { toolKind } from './tool';
import { transformKind } from './transform';
import type { BuilderNodeKind } from './types';

export type { BuilderNodeKind } from './types';

export const builderNodeKinds: { [K in NodeKind]: BuilderNodeKind<K> } = {
  start: startKind,
  end: endKind,
  agent: agentKind,
  condition: conditionKind,
  guardrail: guardrailKind,
  tool: toolKind,
  transform: transformKind,
  code: codeKind,
  map: mapKind,
  loop: loopKind,
  merge: mergeKind,
  approval: approvalKind,
  delay: delayKind,
  note: noteKind,
};

/** Defined once, at module scope (React Flow warns when this object changes). */
export const nodeTypes: NodeTypes = Object.fromEntries(
  Object.values(builderNodeKinds).map((k) => [k.kind, k.Node]),
);

/** A node's colour on the minimap: its kind's (an agent's own colour). */
export const miniMapColor = (node: BuilderNode): string =>
  builderNodeKinds[node.type as NodeKind]?.miniMapColor(node) ?? '#6366f1';
