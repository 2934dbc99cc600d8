import type { Db } from '@crewline/db';
import type { Logger } from 'pino';
import type { ExecutionsService } from '../executions/executions.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import { createActivationGate } from './activation-gate';
import { createDatasetsRepository } from './datasets.repository';
import { createDatasetsService } from './datasets.service';
import { createEvalRunItemsPresenter } from './eval-run-items.presenter';
import { createEvalRunsRepository } from './eval-runs.repository';
import { createEvalRunsService } from './eval-runs.service';
import { createEvaluationsPresenter } from './evaluations.presenter';
import { createEvaluationsRepository } from './evaluations.repository';
import { createEvaluationsService } from './evaluations.service';
import type { GradingPorts } from './graders/grade-item';
import { createNightlyEvaluations, type AdminNotice } from './nightly';

/**
 * The evaluations module's parts, composed for app.ts: datasets, evaluations, eval runs (and their
 * drivers, started by worker.ts) and the activation gate the workflows service consults.
 */
export function createEvaluationsModule(deps: {
  db: Db;
  workflows: WorkflowsService;
  executions: ExecutionsService;
  grading: Omit<GradingPorts, 'meter' | 'signal'>;
  /** Tells the organization's owners and admins (a nightly evaluation's drop). */
  notifyAdmins: (organizationId: string, notice: AdminNotice) => Promise<void>;
  publicUrl: string;
  clock?: () => Date;
  logger?: Logger;
}) {
  const { db, workflows, executions, logger } = deps;
  const datasetsRepository = createDatasetsRepository(db);
  const evaluationsRepository = createEvaluationsRepository(db);
  const runs = createEvalRunsRepository(db);
  const datasets = createDatasetsService({ repository: datasetsRepository, executions });
  const gate = createActivationGate({
    evaluations: evaluationsRepository,
    runs,
    evalRuns: () => evalRuns,
    workflows: () => workflows,
    logger,
  });
  const nightly = createNightlyEvaluations({
    evaluations: evaluationsRepository,
    runs,
    evalRuns: () => evalRuns,
    notifyAdmins: deps.notifyAdmins,
    publicUrl: deps.publicUrl,
    logger,
  });
  const evalRuns = createEvalRunsService({
    runs,
    endedItems: createEvalRunItemsPresenter(db),
    datasets: datasetsRepository,
    evaluations: evaluationsRepository,
    workflows,
    executions,
    grading: deps.grading,
    async onCompleted(run) {
      if (run.reason === 'activation') await gate.activationRan(run);
      if (run.reason === 'schedule') await nightly.ended(run);
    },
    nightly,
    clock: deps.clock,
    logger,
  });
  const evaluations = createEvaluationsService({
    repository: evaluationsRepository,
    presenter: createEvaluationsPresenter(db),
    datasets,
    workflows,
  });
  return { datasets, evaluations, evalRuns, gate, nightly };
}
