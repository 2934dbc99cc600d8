import { and, desc, eq, sql } from 'drizzle-orm';
import { workflowExecutions, type Db } from '@crewline/db';
import type { NodeOutput } from '@crewline/contracts';

/** What "Test this node" reads of a workflow's newest run: its input, what it was started with, its outputs. */
export type TestedRun = {
  id: string;
  input: unknown;
  dynamicInstructions: string | null;
  parameters: Record<string, unknown>;
  output: Record<string, NodeOutput>;
  trigger: string;
  startedAt: Date | null;
  createdAt: Date;
};

export function createNodeTestReads(db: Db) {
  return {
    /**
     * The workflow's newest run whose output holds one of `nodeIds` (the tested node's upstream
     * steps), or its newest run at all when there are none (a first step reads only the input). One
     * statement, on the (workflow, created_at) order.
     */
    async newestRunWith(
      organizationId: string,
      workflowId: string,
      nodeIds: string[],
    ): Promise<TestedRun | undefined> {
      const e = workflowExecutions;
      const [row] = await db
        .select({
          id: e.id,
          input: e.input,
          dynamicInstructions: e.dynamicInstructions,
          parameters: e.parameters,
          output: e.output,
          trigger: e.trigger,
          startedAt: e.startedAt,
          createdAt: e.createdAt,
        })
        .from(e)
        .where(
          and(
            eq(e.organizationId, organizationId),
            eq(e.workflowId, workflowId),
            nodeIds.length > 0
              ? sql`${e.output} ?| array[${sql.join(
                  nodeIds.map((id) => sql`${id}`),
                  sql`, `,
                )}]::text[]`
              : undefined,
          ),
        )
        .orderBy(desc(e.createdAt))
        .limit(1);
      return (
        row && {
          ...row,
          input: row.input ?? {},
          parameters: (row.parameters ?? {}) as Record<string, unknown>,
          // Written only from the engine's step outputs (run-reads.repository.ts says the same).
          output: (row.output ?? {}) as Record<string, NodeOutput>,
        }
      );
    },
  };
}
export type NodeTestReads = ReturnType<typeof createNodeTestReads>;
