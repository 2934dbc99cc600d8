import { EVAL_DEFAULT_CONCURRENCY, evaluationScheduleSchema } from '@crewline/contracts';
import type { Logger } from 'pino';
import { summaryOf } from './eval-run-summary';
import type { EvalRunRow, EvalRunsRepository } from './eval-runs.repository';
import type { EvalRunsService } from './eval-runs.service';
import type { EvaluationsRepository } from './evaluations.repository';

/** The hour (UTC) from which each day's nightly evaluations run. */
export const NIGHTLY_HOUR_UTC = 2;

/** What owners and admins are told (by email, and to the organization's notification URL). */
export type AdminNotice = { subject: string; text: string };

/**
 * Nightly evaluations (docs/product-rules.md, Evaluations): from 02:00 UTC each day, every evaluation
 * with `schedule.nightly` runs once against its workflow's active version (claimed per day, so one
 * worker starts it whatever their number); one whose pass rate ends below `schedule.minPassRate`
 * tells the organization's owners and admins.
 */
export function createNightlyEvaluations(deps: {
  evaluations: Pick<EvaluationsRepository, 'claimNightly' | 'stored'>;
  runs: Pick<EvalRunsRepository, 'figures'>;
  evalRuns: () => Pick<EvalRunsService, 'start'>;
  notifyAdmins: (organizationId: string, notice: AdminNotice) => Promise<void>;
  publicUrl: string;
  logger?: Logger;
}) {
  return {
    /** Starts the evaluations due by `now` and not yet run today. */
    async runDue(now: Date): Promise<number> {
      if (now.getUTCHours() < NIGHTLY_HOUR_UTC) return 0;
      const day = now.toISOString().slice(0, 10);
      const due = await deps.evaluations.claimNightly(day);
      for (const { id, organizationId } of due) {
        await deps
          .evalRuns()
          .start(
            organizationId,
            null,
            id,
            { version: 'active', concurrency: EVAL_DEFAULT_CONCURRENCY },
            { reason: 'schedule' },
          )
          .catch((error: unknown) =>
            deps.logger?.warn({ err: error, evaluationId: id }, 'a nightly evaluation could not start'),
          );
      }
      return due.length;
    },

    /** A nightly eval run ended: below its threshold, owners and admins hear of it. */
    async ended(run: EvalRunRow): Promise<void> {
      const evaluation = await deps.evaluations.stored(run.organizationId, run.evaluationId);
      const schedule = evaluationScheduleSchema.safeParse(evaluation?.schedule);
      if (!evaluation || !schedule.success) return;
      const { passRate } = summaryOf(run, await deps.runs.figures([run.id]), evaluation.name);
      if (passRate === null || passRate >= schedule.data.minPassRate - 1e-9) return;
      const percent = (rate: number) => `${Math.round(rate * 100)} %`;
      await deps.notifyAdmins(run.organizationId, {
        subject: `Crewline: the nightly evaluation “${evaluation.name}” dropped to ${percent(passRate)}`,
        text: `The nightly run of the evaluation “${evaluation.name}” passed ${percent(passRate)} of its items, below its threshold of ${percent(schedule.data.minPassRate)}. See which items failed: ${deps.publicUrl}/evaluations/runs/${run.id}`,
      });
    },
  };
}
