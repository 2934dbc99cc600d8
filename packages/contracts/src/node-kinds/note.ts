// The Note node: text on the canvas; a run never executes it.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

export const noteNodeKind = {
  kind: 'note',
  label: 'Note',
  help: 'Text on the canvas for the people reading the workflow; never run.',
  removable: true,
  step: false,
  sequentialOnly: false,
  data: kindData({ text: z.string().max(10_000).default('') }).meta({
    description: 'Text on the canvas; never run, never a step.',
    examples: [{ text: 'Billing tickets get their orders looked up; everything else gets a general reply.' }],
  }),
} as const satisfies NodeKindDefinition<'note'>;
