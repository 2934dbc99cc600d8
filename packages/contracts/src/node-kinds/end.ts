// The End node: where a run finishes; every workflow has one (docs/product-rules.md, Workflows).
import { nodeDataSchema, type NodeKindDefinition } from './data';

/** Reads `data.label` (shown on the canvas). */
export const endNodeKind = {
  kind: 'end',
  label: 'End',
  help: 'Where the run finishes.',
  removable: false,
  step: false,
  sequentialOnly: false,
  data: nodeDataSchema.meta({
    description: 'Any keys the builder keeps, such as `label`; the run finishes here.',
    examples: [{ label: 'End' }],
  }),
} as const satisfies NodeKindDefinition<'end'>;
