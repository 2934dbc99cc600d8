import {
  EVAL_DEFAULT_CONCURRENCY,
  evaluationMessages,
  type ActivationGate,
  type Workflow,
} from '@crewline/contracts';
import { AppError, BadRequestError, ConflictError } from '../../platform/errors';
import { isUuid } from '../../platform/ids';
import type { Logger } from 'pino';
import type { ActivationGatePort, WorkflowsService } from '../workflows/workflows.service';
import { definitionDigest } from './definition-digest';
import type { EvalRunRow, EvalRunsRepository } from './eval-runs.repository';
import { summaryOf, toItemResult } from './eval-run-summary';
import type { EvalRunsService } from './eval-runs.service';
import type { EvaluationsRepository } from './evaluations.repository';

/** The most failed items a refusal names. */
const FAILED_ITEMS_NAMED = 20;

/** The 202 of an activation whose evaluation is running: the version is recorded when it passes. */
class EvaluationRunning extends AppError {
  constructor(run: EvalRunRow, done: number) {
    super(202, evaluationMessages.evaluationRunning(done, run.total), undefined, {
      code: 'evaluation_running',
      evalRunId: run.id,
    });
  }
}

/**
 * The activation gate (docs/product-rules.md, Evaluations): a gated workflow's working copy becomes
 * a version only when the gate's evaluation, run on exactly that definition (found by its digest),
 * passes with at least `minPassRate`. A definition the newest version already has passes at once
 * (a resume, an activation with nothing changed). The first activation of a new definition starts
 * the evaluation on a snapshot of it (202); once it passes, the version is recorded by itself; an
 * activation after it failed is refused with the failed items (409).
 */
export function createActivationGate(deps: {
  evaluations: Pick<EvaluationsRepository, 'stored'>;
  runs: Pick<EvalRunsRepository, 'latestFor' | 'items' | 'figures'>;
  evalRuns: () => Pick<EvalRunsService, 'start'>;
  workflows: () => Pick<WorkflowsService, 'get' | 'update' | 'versions' | 'version'>;
  logger?: Logger;
}) {
  const port: ActivationGatePort = {
    async checkConfig(organizationId: string, workflowId: string, gate: ActivationGate) {
      const evaluation = isUuid(gate.evaluationId)
        ? await deps.evaluations.stored(organizationId, gate.evaluationId.toLowerCase())
        : undefined;
      if (evaluation?.workflowId !== workflowId)
        throw new BadRequestError(evaluationMessages.gateEvaluationNotFound);
    },

    async admit(organizationId, userId, workflow: Workflow, gate, note) {
      // Only an evaluation of this workflow can hold it back (a gate naming another one is refused).
      await port.checkConfig(organizationId, workflow.id, gate);
      const digest = definitionDigest(workflow);
      const [newest] = await deps.workflows().versions(organizationId, workflow.id);
      if (newest) {
        const released = await deps.workflows().version(organizationId, workflow.id, newest.version);
        if (definitionDigest(released) === digest) return null;
      }
      const evaluationId = gate.evaluationId.toLowerCase();
      const latest = await deps.runs.latestFor(organizationId, evaluationId, digest);
      if (!latest || latest.status === 'cancelled' || latest.status === 'failed') {
        const run = await deps
          .evalRuns()
          .start(
            organizationId,
            userId,
            evaluationId,
            { version: 'draft', concurrency: EVAL_DEFAULT_CONCURRENCY },
            { reason: 'activation', activation: { userId, note } },
          );
        // Its items start in the background (eval-runs.service.ts): none is graded yet.
        throw new EvaluationRunning(run, 0);
      }
      const items = await deps.runs.items(latest.id);
      const summary = summaryOf(
        latest,
        items.map(({ item }) => item),
        '',
      );
      if (latest.status === 'running') throw new EvaluationRunning(latest, summary.progress.done);
      const passRate = summary.passRate;
      if (passRate !== null && passRate >= gate.minPassRate - 1e-9) {
        return `Evaluation passed: ${Math.round(passRate * 100)} % (eval run ${latest.id})`;
      }
      throw new ConflictError(evaluationMessages.evaluationFailed(passRate, gate.minPassRate), {
        code: 'evaluation_failed',
        passRate,
        minPassRate: gate.minPassRate,
        evalRunId: latest.id,
        failedItems: items
          .map(toItemResult)
          .filter((item) => item.passed === false)
          .slice(0, FAILED_ITEMS_NAMED)
          .map((item) => ({
            itemId: item.itemId,
            input: item.input,
            reason:
              item.error ??
              item.grades
                .filter((grade) => !grade.passed)
                .map((grade) => `${grade.name}: ${grade.reason}`)
                .join('; '),
          })),
      });
    },
  };

  return {
    port,

    /**
     * An activation's eval run ended: if it passed and the working copy is still what it ran, the
     * activation goes on (the gate now finds the passing run and the version is recorded).
     */
    async activationRan(run: EvalRunRow): Promise<void> {
      if (!run.activation) return;
      try {
        const workflow = await deps.workflows().get(run.organizationId, run.workflowId);
        if (definitionDigest(workflow) !== run.digest) return;
        const gate = (workflow.config as { activationGate?: ActivationGate }).activationGate;
        if (gate?.evaluationId.toLowerCase() !== run.evaluationId) return;
        const summary = summaryOf(run, await deps.runs.figures([run.id]), '');
        if (summary.passRate === null || summary.passRate < gate.minPassRate - 1e-9) return;
        await deps.workflows().update(run.organizationId, run.activation.userId, run.workflowId, {
          status: 'active',
          versionNote: run.activation.note,
        });
      } catch (error) {
        deps.logger?.warn(
          { err: error, evalRunId: run.id },
          'recording the version an evaluation admitted failed',
        );
      }
    },
  };
}
export type ActivationGateService = ReturnType<typeof createActivationGate>;
