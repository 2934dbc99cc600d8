import {
  activationGateSchema,
  evaluationMessages,
  type createEvaluationSchema,
  type Evaluation,
  type Grader,
  type updateEvaluationSchema,
} from '@crewline/contracts';
import { checkGraderTarget } from '@crewline/engine';
import type { z } from 'zod';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import { isUuid, requireUuid } from '../../platform/ids';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { DatasetsService } from './datasets.service';
import type { EvaluationsPresenter } from './evaluations.presenter';
import type { EvaluationsRepository } from './evaluations.repository';
import { NIGHTLY_HOUR_UTC } from './nightly';

/** The night whose run is due now or has passed (UTC, from 02:00): a schedule switched on starts from the next one. */
const currentNight = () => new Date(Date.now() - NIGHTLY_HOUR_UTC * 3_600_000).toISOString().slice(0, 10);

/** A grader's target must be an expression the graders can evaluate: refused at save with the reason. */
function checkGraders(graders: Grader[]): void {
  const errors = graders.flatMap((grader, index) => {
    const problem = grader.target ? checkGraderTarget(grader.target) : null;
    return problem ? [{ path: `graders.${index}.target`, message: problem }] : [];
  });
  if (errors.length > 0) throw new BadRequestError(errors[0].message, errors);
}

/**
 * Evaluations (docs/product-rules.md, Evaluations): a dataset of the organization run against one of
 * its workflows and scored by graders. The workflow is fixed at creation; the dataset, graders and
 * threshold may change (eval runs keep what they started with).
 */
export function createEvaluationsService(deps: {
  repository: EvaluationsRepository;
  presenter: EvaluationsPresenter;
  datasets: Pick<DatasetsService, 'get'>;
  workflows: Pick<WorkflowsService, 'get'>;
}) {
  const { repository, presenter } = deps;

  async function get(organizationId: string, id: string): Promise<Evaluation> {
    const evaluation = await presenter.get(
      organizationId,
      requireUuid(id, evaluationMessages.evaluationNotFound),
    );
    if (!evaluation) throw new NotFoundError(evaluationMessages.evaluationNotFound);
    return evaluation;
  }

  return {
    /** Another organization's workflow, or no workflow at all, has none. */
    list: async (organizationId: string, workflowId?: string) =>
      workflowId !== undefined && !isUuid(workflowId)
        ? []
        : presenter.list(organizationId, workflowId?.toLowerCase()),
    get,

    async create(
      organizationId: string,
      userId: string,
      input: z.output<typeof createEvaluationSchema>,
    ): Promise<Evaluation> {
      const workflow = await deps.workflows.get(organizationId, input.workflowId);
      const dataset = await deps.datasets.get(organizationId, input.datasetId);
      checkGraders(input.graders);
      const id = await repository.create(organizationId, userId, workflow.id, {
        name: input.name,
        datasetId: dataset.id,
        graders: input.graders,
        passThreshold: input.passThreshold,
        schedule: input.schedule ?? null,
        lastNightlyOn: currentNight(),
      });
      return get(organizationId, id);
    },

    async update(
      organizationId: string,
      id: string,
      patch: z.output<typeof updateEvaluationSchema>,
    ): Promise<Evaluation> {
      const existing = await get(organizationId, id);
      const dataset = patch.datasetId ? await deps.datasets.get(organizationId, patch.datasetId) : undefined;
      if (patch.graders) checkGraders(patch.graders);
      await repository.update(organizationId, existing.id, {
        name: patch.name,
        datasetId: dataset?.id,
        graders: patch.graders,
        passThreshold: patch.passThreshold,
        schedule: patch.schedule === undefined ? undefined : (patch.schedule ?? null),
        lastNightlyOn: patch.schedule?.nightly && !existing.schedule?.nightly ? currentNight() : undefined,
      });
      return get(organizationId, existing.id);
    },

    /** Refused (409) while its workflow's activation gate names it. */
    async remove(organizationId: string, id: string): Promise<void> {
      const existing = await get(organizationId, id);
      const workflow = await deps.workflows.get(organizationId, existing.workflowId);
      const gate = activationGateSchema.safeParse(
        (workflow.config as { activationGate?: unknown }).activationGate,
      );
      if (gate.success && gate.data.evaluationId.toLowerCase() === existing.id)
        throw new ConflictError(
          `The activation gate of "${workflow.name}" needs this evaluation: remove the gate first`,
        );
      await repository.remove(organizationId, existing.id);
    },
  };
}
export type EvaluationsService = ReturnType<typeof createEvaluationsService>;
