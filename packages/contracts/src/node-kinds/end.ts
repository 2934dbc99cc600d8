// The End node: where a run finishes; every workflow has one (docs/product-rules.md, Workflows).
import { nodeDataSchema, type NodeKindDefinition } from './data';

/** Reads `data.label` (shown on the canvas). */
export const endNodeKind = {
  kind: 'end',
  label: 'End',
  removable: false,
  data: nodeDataSchema,
} as const satisfies NodeKindDefinition<'end'>;
