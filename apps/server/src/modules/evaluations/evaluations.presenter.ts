import { and, desc, eq, sql } from 'drizzle-orm';
import { datasets, evaluations, workflows, type Db } from '@crewline/db';
import { graderSchema, type Evaluation } from '@crewline/contracts';
import { z } from 'zod';

type EvaluationRow = typeof evaluations.$inferSelect;

const graderList = z.array(graderSchema);

const lastRun = sql<{ id: string; status: string; passRate: number | null; createdAt: string } | null>`(
  select json_build_object('id', r.id, 'status', r.status, 'createdAt', r.created_at,
    'passRate', (select case when count(*) filter (where i.passed is not null) = 0 then null
      else (count(*) filter (where i.passed))::float / count(*) filter (where i.passed is not null) end
      from eval_run_items i where i.eval_run_id = r.id))
  from eval_runs r where r.evaluation_id = "evaluations"."id" order by r.created_at desc limit 1)`;

const columns = {
  evaluation: evaluations,
  workflowName: workflows.name,
  datasetName: datasets.name,
  lastRun,
};

function toEvaluation(row: {
  evaluation: EvaluationRow;
  workflowName: string;
  datasetName: string;
  lastRun: { id: string; status: string; passRate: number | null; createdAt: string } | null;
}): Evaluation {
  const { evaluation } = row;
  return {
    id: evaluation.id,
    name: evaluation.name,
    workflowId: evaluation.workflowId,
    workflowName: row.workflowName,
    datasetId: evaluation.datasetId,
    datasetName: row.datasetName,
    graders: graderList.parse(evaluation.graders),
    passThreshold: evaluation.passThreshold,
    schedule: evaluation.schedule,
    lastRun: row.lastRun && { ...row.lastRun, createdAt: new Date(row.lastRun.createdAt).toISOString() },
    createdAt: evaluation.createdAt.toISOString(),
    updatedAt: evaluation.updatedAt.toISOString(),
  };
}

/**
 * Evaluations as the API shows them, a read model over three modules' tables: each with its
 * workflow's and dataset's names and its newest run's pass rate, in one statement.
 */
export function createEvaluationsPresenter(db: Db) {
  const select = () =>
    db
      .select(columns)
      .from(evaluations)
      .innerJoin(workflows, eq(workflows.id, evaluations.workflowId))
      .innerJoin(datasets, eq(datasets.id, evaluations.datasetId));

  return {
    async list(organizationId: string, workflowId?: string): Promise<Evaluation[]> {
      const rows = await select()
        .where(
          and(
            eq(evaluations.organizationId, organizationId),
            workflowId ? eq(evaluations.workflowId, workflowId) : undefined,
          ),
        )
        .orderBy(desc(evaluations.updatedAt));
      return rows.map(toEvaluation);
    },

    async get(organizationId: string, id: string): Promise<Evaluation | undefined> {
      const [row] = await select()
        .where(and(eq(evaluations.organizationId, organizationId), eq(evaluations.id, id)))
        .limit(1);
      return row && toEvaluation(row);
    },
  };
}
export type EvaluationsPresenter = ReturnType<typeof createEvaluationsPresenter>;
