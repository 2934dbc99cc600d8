import { z } from 'zod';
import { evaluationRecordSchema, stepStatusValues, tokenUsageSchema } from './executions';
import { workflowNodeSchema } from './workflows';

/** A map or a loop under "Test this node" runs this many of its items or passes, no more: a test is a look, not a run. */
export const NODE_TEST_ITEMS = 3;

/** Why a test did not run: the workflow has no run whose data it could use. */
export const nodeTestMessages = {
  noRunYet:
    'No run yet: this workflow has not run, so there is no upstream data to test with. Test with sample data instead.',
  nodeNotFound: 'There is no such node in this workflow (save the workflow to test a new step)',
  otherNode: 'The node sent must be the node being tested (same id)',
} as const;

export const nodeTestParamsSchema = z.object({ id: z.string(), nodeId: z.string().min(1).max(200) });

/** What the tested node reads, as expressions read it in a run: `input`, `nodes.<id>`, `vars`. */
export const nodeTestContextSchema = z
  .object({
    input: z.unknown().optional(),
    nodes: z
      .record(
        z.string(),
        z.object({
          content: z.string().default(''),
          data: z.unknown().optional(),
          status: z.enum(stepStatusValues).default('completed'),
        }),
      )
      .optional(),
    vars: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    description:
      'Sample data: what the node reads as `input`, `nodes.<id>` (`content`, `data`, `status`) and `vars`.',
  });
export type NodeTestContext = z.infer<typeof nodeTestContextSchema>;

export const testNodeSchema = z.object({
  /** The builder's current version of the node (unsaved changes included); the saved one when absent. */
  node: workflowNodeSchema.optional().meta({
    description:
      "The node as it is now in the builder (same id), unsaved changes included; else the saved node's.",
  }),
  /** Sample data; without it, the upstream data of the workflow's newest run that has them. */
  context: nodeTestContextSchema.optional(),
});
export type TestNodeInput = z.input<typeof testNodeSchema>;
export type TestNodeData = z.infer<typeof testNodeSchema>;

const tested = {
  durationMs: z.number(),
  /** The run whose data the node was tested with; null for sample data. */
  runId: z.string().nullable(),
};

export const nodeTestResultSchema = z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('completed'),
      content: z.string(),
      data: z.unknown(),
      evaluation: evaluationRecordSchema.optional(),
      usage: tokenUsageSchema,
      /** What the test left out: 'Tested on the first 3 of 40 items'. */
      note: z.string().optional(),
      ...tested,
    }),
    z.object({ status: z.literal('failed'), error: z.string(), ...tested }),
  ])
  .meta({
    description:
      "One node's outcome, run outside any run (nothing is stored): its text, data, evaluated expressions, tokens and time, or why it failed.",
  });
export type NodeTestResult = z.infer<typeof nodeTestResultSchema>;
