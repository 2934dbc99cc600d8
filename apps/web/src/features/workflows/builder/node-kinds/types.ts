import type { NodeKind } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import type { LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

import type { BuilderNode, BuilderNodeData } from '../types';

/**
 * What a kind's part of the Properties panel gets: the selected node, and how to change its data
 * (`step` as the store's updateNodeData: a field's name joins its keystrokes, null is a step of its own).
 */
export type NodePanelProps = {
  node: BuilderNode;
  set: (patch: Partial<BuilderNodeData>, step?: string | null) => void;
};

/** The builder's side of one node kind (its label and whether it can be deleted are the contracts'). */
export type BuilderNodeKind<Kind extends NodeKind = NodeKind> = {
  kind: Kind;
  /** Its node on the canvas (memoized: React Flow re-renders nodes often). */
  Node: ComponentType<NodeProps<BuilderNode>>;
  Icon: LucideIcon;
  /** Its colour (the palette's icon, the node's accent). */
  accent: string;
  /** Its colour on the minimap. */
  miniMapColor(node: BuilderNode): string;
  /** The Properties panel's own parts for this kind, above and below the Label and Description fields. */
  PanelSummary?: ComponentType<NodePanelProps>;
  PanelSettings?: ComponentType<NodePanelProps>;
  /** The panel shows its own fields only, not Label and Description (a note is only its text). */
  ownFieldsOnly?: boolean;
};
