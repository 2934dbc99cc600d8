import { and, eq, sql } from 'drizzle-orm';
import { evaluations, type Db } from '@crewline/db';
import type { Grader } from '@crewline/contracts';

/** What an evaluation stores besides its ids. */
export type EvaluationValues = {
  name: string;
  datasetId: string;
  graders: Grader[];
  passThreshold: number;
  schedule: { nightly: boolean; minPassRate: number } | null;
  /** The night counted as run already (a schedule switched on runs from the next night). */
  lastNightlyOn?: string;
};

/** Evaluations' own rows (evaluations.presenter.ts reads them with their names and last run). */
export function createEvaluationsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(evaluations.organizationId, organizationId), eq(evaluations.id, id));

  return {
    async create(
      organizationId: string,
      userId: string,
      workflowId: string,
      values: EvaluationValues,
    ): Promise<string> {
      const [row] = await db
        .insert(evaluations)
        .values({ organizationId, workflowId, createdBy: userId, ...values })
        .returning({ id: evaluations.id });
      return row.id;
    },

    async update(organizationId: string, id: string, values: Partial<EvaluationValues>): Promise<boolean> {
      const rows = await db
        .update(evaluations)
        .set({ ...values, updatedAt: new Date() })
        .where(scoped(organizationId, id))
        .returning({ id: evaluations.id });
      return rows.length > 0;
    },

    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(evaluations)
        .where(scoped(organizationId, id))
        .returning({ id: evaluations.id });
      return rows.length > 0;
    },

    /** What a run of it needs: its workflow, dataset, graders and threshold. */
    async stored(organizationId: string, id: string) {
      const [row] = await db.select().from(evaluations).where(scoped(organizationId, id)).limit(1);
      return row;
    },

    /** Nightly evaluations not yet run on `day` (UTC, YYYY-MM-DD), each claimed for that day by one worker. */
    async claimNightly(day: string): Promise<{ id: string; organizationId: string }[]> {
      return db
        .update(evaluations)
        .set({ lastNightlyOn: day })
        .where(
          sql`(${evaluations.schedule}->>'nightly')::boolean is true
            and (${evaluations.lastNightlyOn} is null or ${evaluations.lastNightlyOn} < ${day}::date)`,
        )
        .returning({ id: evaluations.id, organizationId: evaluations.organizationId });
    },
  };
}
export type EvaluationsRepository = ReturnType<typeof createEvaluationsRepository>;
