import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { datasetItems, evalRunItems, workflowExecutions, type Db } from '@crewline/db';

/**
 * Which items of an eval run are ready to grade: started, not graded, and their run has ended (or
 * was deleted meanwhile). A read across the evaluations' and the executions' tables, in one
 * statement, so a driver's look at an eval run costs one read however many items are in flight.
 */
export function createEvalRunItemsPresenter(db: Db) {
  return {
    async endedUngraded(evalRunId: string) {
      return db
        .select({
          id: evalRunItems.id,
          executionId: evalRunItems.executionId,
          input: datasetItems.input,
          expected: datasetItems.expected,
          tags: datasetItems.tags,
        })
        .from(evalRunItems)
        .innerJoin(datasetItems, eq(datasetItems.id, evalRunItems.itemId))
        .leftJoin(workflowExecutions, eq(workflowExecutions.id, evalRunItems.executionId))
        .where(
          and(
            eq(evalRunItems.evalRunId, evalRunId),
            isNotNull(evalRunItems.startedAt),
            isNull(evalRunItems.gradedAt),
            or(
              isNull(workflowExecutions.id),
              sql`${workflowExecutions.status} in ('completed', 'failed', 'cancelled')`,
            ),
          ),
        );
    },
  };
}
export type EvalRunItemsPresenter = ReturnType<typeof createEvalRunItemsPresenter>;
