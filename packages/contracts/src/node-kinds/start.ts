// The Start node: where a run begins; every workflow has one (docs/product-rules.md, Workflows).
import { nodeDataSchema, type NodeKindDefinition } from './data';

/** Reads `data.label` (shown on the canvas). */
export const startNodeKind = {
  kind: 'start',
  label: 'Start',
  removable: false,
  data: nodeDataSchema,
} as const satisfies NodeKindDefinition<'start'>;
