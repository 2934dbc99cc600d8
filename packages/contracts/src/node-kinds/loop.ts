// The Loop node: runs an agent or a workflow again until a condition over its last pass holds.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';
import { runTargetSchema } from './run-target';

export const LOOP_ITERATIONS = { min: 1, max: 50 } as const;

/**
 * `{ run, until, maxIterations }` (`until` is CEL over `last`, checked after each pass); its step's
 * `data` is every pass `[{ index, status, content, data }]`, each a child step `loopNode#2`.
 */
export const loopNodeKind = {
  kind: 'loop',
  label: 'Loop',
  help: 'Runs an agent or a workflow again until a condition holds, at most N times.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    run: runTargetSchema.optional(),
    until: z
      .string()
      .max(5000)
      .default('true')
      .meta({ description: 'CEL over `last` (the pass that just finished), checked after each pass.' }),
    maxIterations: z.number().int().default(3).meta({ description: 'Passes at most, 1 to 50.' }),
  }).meta({
    description:
      "Runs an agent or a workflow again until `until` is true or `maxIterations` is reached (which completes it). Its step's `data` is every pass `[{ index, status, content, data }]`; each pass is a child step `<id>#<n>`.",
    examples: [
      {
        label: 'Draft until approved',
        run: {
          agentId: '3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
          prompt:
            'Write the reply ({{ vars.priority }} priority).{{ last == null ? "" : " Reviewer notes: " + last.content }}',
        },
        until: 'last.data.approved == true',
        maxIterations: 3,
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'loop'>;
