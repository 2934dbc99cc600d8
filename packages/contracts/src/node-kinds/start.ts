// The Start node: where a run begins; every workflow has one (docs/product-rules.md, Workflows).
import { nodeDataSchema, type NodeKindDefinition } from './data';

/** Reads `data.label` (shown on the canvas). */
export const startNodeKind = {
  kind: 'start',
  label: 'Start',
  help: 'Where the run begins, with its input.',
  removable: false,
  step: false,
  sequentialOnly: false,
  data: nodeDataSchema.meta({
    description: 'Any keys the builder keeps, such as `label`; a run begins here, with its input.',
    examples: [{ label: 'Start' }],
  }),
} as const satisfies NodeKindDefinition<'start'>;
