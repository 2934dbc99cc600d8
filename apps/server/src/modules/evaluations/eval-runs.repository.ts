import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { datasetItems, evalRunItems, evalRuns, type Db, type SqlExecutor } from '@crewline/db';
import type { Grade } from '@crewline/contracts';

export type EvalRunRow = typeof evalRuns.$inferSelect;
export type EvalRunItemRow = typeof evalRunItems.$inferSelect;
type NewEvalRun = Omit<typeof evalRuns.$inferInsert, 'id' | 'status' | 'createdAt' | 'completedAt'>;

/** Where an eval run's items stand, counted in one read. */
export type EvalRunCounts = { total: number; started: number; graded: number };

/**
 * Eval runs and their items (docs/product-rules.md, Evaluations). Items are started by the one
 * worker driving the eval run (`claimDriving`), so however many workers there are, no more than its
 * concurrency run at once; each item's grade is written once (compare-and-set on `graded_at`).
 */
export function createEvalRunsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(evalRuns.organizationId, organizationId), eq(evalRuns.id, id));

  return {
    /** The eval run with one item per dataset item, in one transaction. */
    async create(values: NewEvalRun, items: { itemId: string }[]): Promise<EvalRunRow> {
      return db.transaction(async (tx) => {
        const [run] = await tx.insert(evalRuns).values(values).returning();
        for (let start = 0; start < items.length; start += 1000) {
          await tx.insert(evalRunItems).values(
            items.slice(start, start + 1000).map((item, index) => ({
              evalRunId: run.id,
              organizationId: values.organizationId,
              itemId: item.itemId,
              position: start + index + 1,
            })),
          );
        }
        return run;
      });
    },

    async get(organizationId: string, id: string): Promise<EvalRunRow | undefined> {
      const [row] = await db.select().from(evalRuns).where(scoped(organizationId, id)).limit(1);
      return row;
    },

    /** Any organization's (the drivers look at eval runs by id). */
    async byId(id: string): Promise<EvalRunRow | undefined> {
      const [row] = await db.select().from(evalRuns).where(eq(evalRuns.id, id)).limit(1);
      return row;
    },

    async list(organizationId: string, evaluationId: string): Promise<EvalRunRow[]> {
      return db
        .select()
        .from(evalRuns)
        .where(and(eq(evalRuns.organizationId, organizationId), eq(evalRuns.evaluationId, evaluationId)))
        .orderBy(desc(evalRuns.createdAt))
        .limit(100);
    },

    /** The newest eval run of the evaluation on a definition with this digest (the activation gate's). */
    async latestFor(organizationId: string, evaluationId: string, digest: string) {
      const [row] = await db
        .select()
        .from(evalRuns)
        .where(
          and(
            eq(evalRuns.organizationId, organizationId),
            eq(evalRuns.evaluationId, evaluationId),
            eq(evalRuns.digest, digest),
          ),
        )
        .orderBy(desc(evalRuns.createdAt))
        .limit(1);
      return row;
    },

    /** A snapshot of the working copy already taken for this definition (a version below zero), if any. */
    async snapshotFor(workflowId: string, digest: string): Promise<number | undefined> {
      const [row] = await db
        .select({ version: evalRuns.workflowVersion })
        .from(evalRuns)
        .where(
          and(
            eq(evalRuns.workflowId, workflowId),
            eq(evalRuns.digest, digest),
            lt(evalRuns.workflowVersion, 0),
          ),
        )
        .limit(1);
      return row?.version;
    },

    /** Ids of the eval runs still running (the drivers' sweep). */
    async running(): Promise<string[]> {
      const rows = await db
        .select({ id: evalRuns.id })
        .from(evalRuns)
        .where(eq(evalRuns.status, 'running'))
        .orderBy(asc(evalRuns.createdAt))
        .limit(200);
      return rows.map((row) => row.id);
    },

    /**
     * Takes the driving of a running eval run for `ms` (compare-and-set on `driven_until`): false
     * when it has ended or another worker drives it now. Holding no connection meanwhile.
     */
    async claimDriving(id: string, ms: number): Promise<boolean> {
      const rows = await db
        .update(evalRuns)
        .set({ drivenUntil: sql`now() + make_interval(secs => ${ms / 1000})` })
        .where(
          and(
            eq(evalRuns.id, id),
            eq(evalRuns.status, 'running'),
            or(isNull(evalRuns.drivenUntil), lt(evalRuns.drivenUntil, sql`now()`)),
          ),
        )
        .returning({ id: evalRuns.id });
      return rows.length > 0;
    },

    async releaseDriving(id: string): Promise<void> {
      await db.update(evalRuns).set({ drivenUntil: null }).where(eq(evalRuns.id, id));
    },

    async counts(id: string): Promise<EvalRunCounts> {
      const [row] = await db
        .select({
          total: sql<number>`count(*)`.mapWith(Number),
          started: sql<number>`count(*) filter (where ${evalRunItems.startedAt} is not null)`.mapWith(Number),
          graded: sql<number>`count(*) filter (where ${evalRunItems.gradedAt} is not null)`.mapWith(Number),
        })
        .from(evalRunItems)
        .where(eq(evalRunItems.evalRunId, id));
      return row;
    },

    /** The next items to start, in order. */
    async startable(id: string, limit: number) {
      return db
        .select({ id: evalRunItems.id, itemId: evalRunItems.itemId, input: datasetItems.input })
        .from(evalRunItems)
        .innerJoin(datasetItems, eq(datasetItems.id, evalRunItems.itemId))
        .where(and(eq(evalRunItems.evalRunId, id), isNull(evalRunItems.startedAt)))
        .orderBy(asc(evalRunItems.position))
        .limit(limit);
    },

    /**
     * Marks the item started with its run, in the run's own transaction (`executor`), while its eval
     * run is still running: false otherwise (the caller then throws, so no run starts after a cancel).
     */
    async markStarted(executor: SqlExecutor, itemId: string, executionId: string): Promise<boolean> {
      const { rows } = await executor.executeSql(
        `update eval_run_items i set execution_id = $1, started_at = now()
          where i.id = $2 and i.started_at is null
            and exists (select 1 from eval_runs r where r.id = i.eval_run_id and r.status = 'running')
          returning i.id`,
        [executionId, itemId],
      );
      return rows.length > 0;
    },

    /** The item's grade, written once. False when another worker graded it first. */
    async grade(
      itemId: string,
      values: {
        output: unknown;
        grades: Grade[];
        passed: boolean;
        score: number;
        costMicros: number | null;
        durationMs: number | null;
        error: string | null;
      },
    ): Promise<boolean> {
      const rows = await db
        .update(evalRunItems)
        .set({ ...values, gradedAt: new Date() })
        .where(and(eq(evalRunItems.id, itemId), isNull(evalRunItems.gradedAt)))
        .returning({ id: evalRunItems.id });
      return rows.length > 0;
    },

    /** Ends a running eval run (compare-and-set): false when it had already ended. */
    async finish(
      id: string,
      status: 'completed' | 'cancelled' | 'failed',
      error: string | null = null,
    ): Promise<boolean> {
      const rows = await db
        .update(evalRuns)
        .set({ status, error, completedAt: new Date(), drivenUntil: null })
        .where(and(eq(evalRuns.id, id), eq(evalRuns.status, 'running')))
        .returning({ id: evalRuns.id });
      return rows.length > 0;
    },

    /** Its items started and not yet graded: their runs (cancel stops them). */
    async inFlight(id: string): Promise<{ id: string; executionId: string | null }[]> {
      return db
        .select({ id: evalRunItems.id, executionId: evalRunItems.executionId })
        .from(evalRunItems)
        .where(
          and(
            eq(evalRunItems.evalRunId, id),
            isNotNull(evalRunItems.startedAt),
            isNull(evalRunItems.gradedAt),
          ),
        );
    },

    /** The figures of the items of these eval runs, in one read (the list of an evaluation's runs). */
    async figures(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          evalRunId: evalRunItems.evalRunId,
          gradedAt: evalRunItems.gradedAt,
          passed: evalRunItems.passed,
          costMicros: evalRunItems.costMicros,
          durationMs: evalRunItems.durationMs,
          grades: evalRunItems.grades,
        })
        .from(evalRunItems)
        .where(inArray(evalRunItems.evalRunId, ids));
    },

    /** Every item in order, with its case's input and expected answer. */
    async items(id: string) {
      return db
        .select({ item: evalRunItems, input: datasetItems.input, expected: datasetItems.expected })
        .from(evalRunItems)
        .innerJoin(datasetItems, eq(datasetItems.id, evalRunItems.itemId))
        .where(eq(evalRunItems.evalRunId, id))
        .orderBy(asc(evalRunItems.position));
    },
  };
}
export type EvalRunsRepository = ReturnType<typeof createEvalRunsRepository>;
