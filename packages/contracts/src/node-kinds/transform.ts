// The Transform node: sets named values, computed with CEL, into the run's `vars`.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

export const assignmentSchema = z.object({
  /** The name under `vars` (letters, digits and _, starting with a letter). */
  name: z.string().max(100).meta({ description: 'The name under `vars` (letters, digits and _).' }),
  /** CEL. */
  value: z.string().max(5000).meta({ description: 'CEL.' }),
});

/** `{ assignments: [{ name, value }] }`; its step's `data` is the object it set. */
export const transformNodeKind = {
  kind: 'transform',
  label: 'Transform',
  help: 'Computes named values into vars, without a model.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({ assignments: z.array(assignmentSchema).max(50).default([]) }).meta({
    description:
      "Computes named values with CEL into `vars`, in order. Its step's `data` is the object it set.",
    examples: [
      {
        label: 'Prepare',
        assignments: [
          { name: 'orderCount', value: 'size(nodes.classify.data.orders)' },
          { name: 'priority', value: 'nodes.classify.data.urgent ? "high" : "normal"' },
        ],
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'transform'>;
