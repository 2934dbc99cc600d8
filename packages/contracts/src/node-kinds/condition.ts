// The Condition node: the first branch whose CEL expression is true is taken, else its else path.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

/** The handle of a condition's path taken when no branch is (edges' `sourceHandle`). */
export const ELSE_BRANCH = 'else';

export const conditionBranchSchema = z.object({
  id: z.string().min(1).max(100).meta({ description: 'What its edges name as `sourceHandle`.' }),
  label: z.string().max(200),
  /** CEL: the branch is taken when this is true. */
  when: z.string().max(5000).meta({ description: 'CEL: the branch is taken when this is true.' }),
});
export type ConditionBranch = z.infer<typeof conditionBranchSchema>;

/** `{ branches: [{ id, label, when }] }`; its step's `data` is `{ branch }`, a branch id or `else`. */
export const conditionNodeKind = {
  kind: 'condition',
  label: 'Condition',
  help: 'Chooses a path: the first branch whose expression is true, else the else path.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({ branches: z.array(conditionBranchSchema).max(20).default([]) }).meta({
    description:
      'Ordered branches: the first whose `when` is true is taken, else the `else` path (an edge with `sourceHandle: "else"`, required). Its step\'s `data` is `{ branch }`.',
    examples: [
      {
        label: 'Route',
        branches: [
          { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
          {
            id: 'bug',
            label: 'Urgent bug',
            when: 'nodes.classify.data.category == "bug" && nodes.classify.data.urgent',
          },
        ],
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'condition'>;
