import {
  EVAL_DEFAULT_CONCURRENCY,
  evaluationMessages,
  graderSchema,
  type EvalComparison,
  type EvalRun,
  type EvalRunSummary,
  type Execution,
  type StartEvalRunInput,
} from '@crewline/contracts';
import type { GradingContext } from '@crewline/engine';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import { compareRuns } from './eval-compare';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import { channels } from '../../platform/notifications/channels';
import type { ExecutionsService } from '../executions/executions.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { DatasetsRepository } from './datasets.repository';
import { definitionDigest } from './definition-digest';
import type { EvalRunItemsPresenter } from './eval-run-items.presenter';
import type { EvalRunRow, EvalRunsRepository } from './eval-runs.repository';
import { failuresFirst, summaryOf, toItemResult } from './eval-run-summary';
import type { EvaluationsRepository } from './evaluations.repository';
import { gradeItem, type GradingPorts } from './graders/grade-item';

const graderList = z.array(graderSchema);

/** How often a driver looks at every running eval run (a run's end event makes it look at once). */
const SWEEP_MS = 2000;
/** How long one look may drive an eval run before another worker may take it over. */
const DRIVING_MS = 60_000;
/** How often a driver asks whether nightly evaluations are due. */
const NIGHTLY_CHECK_MS = 60_000;

/** An eval run that ended while an item's run was starting: the start rolls back. */
class EvalRunEnded extends Error {}

/** The events of a run's end. */
const endedEvents = new Set<string>([
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
]);

/** Why an eval run starts: a person, the nightly schedule, or an activation behind the gate. */
export type EvalRunReason = 'manual' | 'schedule' | 'activation';

/** A run's figures as the graders read them (`run.costUsd`, `run.durationMs`). */
function runFigures(run: Execution) {
  const metrics = run.metrics as { costUsd?: number | null; durationMs?: number };
  const costUsd = typeof metrics.costUsd === 'number' ? metrics.costUsd : null;
  const durationMs =
    typeof metrics.durationMs === 'number'
      ? metrics.durationMs
      : run.startedAt && run.completedAt
        ? Date.parse(run.completedAt) - Date.parse(run.startedAt)
        : null;
  return { costUsd, durationMs };
}

function gradingContext(
  run: Execution,
  item: { input: Record<string, unknown>; expected: unknown; tags: string[] },
): GradingContext {
  const nodes = Object.fromEntries(
    Object.entries(run.output ?? {}).map(([id, step]) => [
      id,
      { content: step.content, data: step.data ?? null, status: step.status ?? 'completed' },
    ]),
  );
  const { costUsd, durationMs } = runFigures(run);
  return {
    run: {
      id: run.id,
      status: run.status,
      result: run.result,
      output: run.output ?? {},
      input: run.input,
      costUsd,
      durationMs,
      error: run.error,
    },
    nodes,
    input: run.input,
    item: { input: item.input, expected: item.expected ?? null, tags: item.tags },
  };
}

/**
 * Eval runs (docs/product-rules.md, Evaluations): a dataset version against one pinned workflow
 * version, each item a run (trigger `eval`) started by whichever worker drives the eval run, at most
 * `concurrency` at once, and graded when its run ends. Driving is idempotent and shared: every
 * worker sweeps the running eval runs, and the end of an item's run makes the process that started
 * it look again at once.
 */
export function createEvalRunsService(deps: {
  runs: EvalRunsRepository;
  endedItems: EvalRunItemsPresenter;
  datasets: Pick<DatasetsRepository, 'get' | 'itemsAt'>;
  evaluations: Pick<EvaluationsRepository, 'stored'>;
  workflows: Pick<WorkflowsService, 'get' | 'version' | 'versions' | 'snapshot'>;
  executions: Pick<ExecutionsService, 'startRun' | 'get' | 'cancel'>;
  grading: Omit<GradingPorts, 'meter' | 'signal'>;
  /** Told when an eval run completed (the activation gate records a version, a nightly run may alert). */
  onCompleted?: (run: EvalRunRow) => Promise<void>;
  /** Starts the nightly evaluations due (nightly.ts); the drivers ask once a minute. */
  nightly?: { runDue(now: Date): Promise<unknown> };
  clock?: () => Date;
  logger?: Logger;
}) {
  const { runs } = deps;
  /** Item runs this process started, and their eval run: their end wakes it here (when it drives). */
  const started = new Map<string, string>();
  let driving = false;

  /** The organization's evaluation (404 for another organization's). */
  async function evaluationOf(organizationId: string, id: string) {
    const evaluation = await deps.evaluations.stored(
      organizationId,
      requireUuid(id, evaluationMessages.evaluationNotFound),
    );
    if (!evaluation) throw new NotFoundError(evaluationMessages.evaluationNotFound);
    return evaluation;
  }

  async function stored(organizationId: string, id: string): Promise<EvalRunRow> {
    const run = await runs.get(organizationId, requireUuid(id, evaluationMessages.evalRunNotFound));
    if (!run) throw new NotFoundError(evaluationMessages.evalRunNotFound);
    return run;
  }

  /** The version to run and its definition's digest: a recorded version, the newest, or a snapshot of the working copy. */
  async function resolveVersion(
    organizationId: string,
    userId: string | null,
    workflowId: string,
    version: StartEvalRunInput['version'],
  ): Promise<{ version: number; digest: string }> {
    if (version === 'draft') {
      const workflow = await deps.workflows.get(organizationId, workflowId);
      const digest = definitionDigest(workflow);
      const snapshot =
        (await runs.snapshotFor(workflowId, digest)) ??
        (await deps.workflows.snapshot(organizationId, userId, workflowId));
      return { version: snapshot, digest };
    }
    let number = version;
    if (number === 'active') {
      const [newest] = await deps.workflows.versions(organizationId, workflowId);
      if (!newest) throw new ConflictError(evaluationMessages.noActiveVersion);
      number = newest.version;
    }
    const recorded = await deps.workflows.version(organizationId, workflowId, number).catch((error) => {
      if (error instanceof NotFoundError) throw new NotFoundError(evaluationMessages.versionNotFound);
      throw error;
    });
    return { version: number, digest: definitionDigest(recorded) };
  }

  /** Grades one item whose run ended (or vanished); written once whoever grades it. */
  async function grade(
    run: EvalRunRow,
    item: Awaited<ReturnType<EvalRunItemsPresenter['endedUngraded']>>[number],
  ): Promise<void> {
    const execution = item.executionId
      ? await deps.executions.get(run.organizationId, item.executionId).catch(() => undefined)
      : undefined;
    if (!execution) {
      await runs.grade(item.id, {
        output: null,
        grades: [],
        passed: false,
        score: 0,
        costMicros: null,
        durationMs: null,
        error: 'Its run was deleted',
      });
      return;
    }
    const { costUsd, durationMs } = runFigures(execution);
    const costMicros = costUsd === null ? null : Math.round(costUsd * 1_000_000);
    if (execution.status !== 'completed') {
      await runs.grade(item.id, {
        output: null,
        grades: [],
        passed: false,
        score: 0,
        costMicros,
        durationMs,
        error:
          execution.error ?? (execution.status === 'cancelled' ? 'Its run was cancelled' : 'Its run failed'),
      });
      return;
    }
    const graded = await gradeItem(
      graderList.parse(run.graders),
      run.passThreshold,
      gradingContext(execution, { input: item.input, expected: item.expected, tags: item.tags }),
      {
        ...deps.grading,
        meter: {
          organizationId: run.organizationId,
          source: 'evaluation',
          workflowId: run.workflowId,
          executionId: execution.id,
        },
      },
    );
    await runs.grade(item.id, { ...graded, costMicros, durationMs, error: null });
  }

  /**
   * Starts items up to the concurrency, or ends the eval run once every item is graded: by the one
   * worker driving it (the others skip it; a driver that died is taken over after DRIVING_MS).
   * Answers the eval run when this call completed it.
   */
  async function advance(run: EvalRunRow): Promise<EvalRunRow | undefined> {
    const { id } = run;
    if (!(await runs.claimDriving(id, DRIVING_MS))) return undefined;
    try {
      const counts = await runs.counts(id);
      if (counts.graded >= counts.total) return (await runs.finish(id, 'completed')) ? run : undefined;
      const free = run.concurrency - (counts.started - counts.graded);
      const next = free > 0 ? await runs.startable(id, free) : [];
      // Started side by side: each start is its own transaction, and the concurrency bounds them.
      const outcomes = await Promise.allSettled(
        next.map(async (item) => {
          const execution = await deps.executions.startRun(
            {
              organizationId: run.organizationId,
              workflowId: run.workflowId,
              trigger: 'eval',
              triggeredBy: run.startedBy,
              input: item.input,
              pinnedVersion: run.workflowVersion,
            },
            async (executionId, executor) => {
              if (!(await runs.markStarted(executor, item.id, executionId))) throw new EvalRunEnded();
            },
          );
          if (driving) started.set(execution.id, id);
        }),
      );
      const refused = outcomes.find(
        (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
      )?.reason;
      // Cancelled meanwhile: the starts that saw it were rolled back.
      if (refused === undefined || refused instanceof EvalRunEnded) return undefined;
      // A limit refused a run (the month's runs, a spent cap) or the workflow cannot run: the items
      // after it would be refused too, so the eval run ends with the reason.
      if (!(refused instanceof AppError)) throw refused;
      await runs.finish(id, 'failed', refused.message);
      return undefined;
    } finally {
      await runs.releaseDriving(id);
    }
  }

  /** One look at an eval run: grade what ended, then start more or finish. Never throws. */
  async function drive(id: string): Promise<void> {
    try {
      const run = await runs.byId(id);
      if (!run || run.status !== 'running') return;
      const ended = await deps.endedItems.endedUngraded(id);
      await Promise.all(ended.map((item) => grade(run, item)));
      const finished = await advance(run);
      if (finished) await deps.onCompleted?.({ ...finished, status: 'completed', completedAt: new Date() });
    } catch (error) {
      deps.logger?.warn({ err: error, evalRunId: id }, 'driving an eval run failed; trying again');
    }
  }

  /** Looks at an eval run at most once at a time; a wake-up during a look makes it look again after. */
  const looking = new Map<string, { again: boolean; done: Promise<void> }>();
  function look(id: string): Promise<void> {
    const current = looking.get(id);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      do {
        entry.again = false;
        await drive(id);
      } while (entry.again);
      looking.delete(id);
    })();
    looking.set(id, entry);
    return entry.done;
  }

  async function summary(run: EvalRunRow): Promise<EvalRunSummary> {
    const evaluation = await deps.evaluations.stored(run.organizationId, run.evaluationId);
    return summaryOf(run, await runs.figures([run.id]), evaluation?.name ?? '');
  }

  return {
    /**
     * Starts an eval run of the evaluation's dataset (its current version) against a workflow version,
     * and its first items. 404 for another organization's evaluation or an unknown version; 409 when
     * the dataset is empty or the workflow has no active version to run.
     */
    async start(
      organizationId: string,
      userId: string | null,
      evaluationId: string,
      request: { version: StartEvalRunInput['version']; concurrency?: number },
      options: { reason?: EvalRunReason; activation?: { userId: string | null; note: string | null } } = {},
    ): Promise<EvalRunRow> {
      const evaluation = await evaluationOf(organizationId, evaluationId);
      const dataset = await deps.datasets.get(organizationId, evaluation.datasetId);
      if (!dataset) throw new NotFoundError(evaluationMessages.datasetNotFound);
      const items = await deps.datasets.itemsAt(dataset.id, dataset.version);
      if (items.length === 0) throw new ConflictError(evaluationMessages.emptyDataset);
      const { version, digest } = await resolveVersion(
        organizationId,
        userId,
        evaluation.workflowId,
        request.version,
      );
      const run = await runs.create(
        {
          organizationId,
          evaluationId: evaluation.id,
          workflowId: evaluation.workflowId,
          workflowVersion: version,
          digest,
          datasetVersion: dataset.version,
          reason: options.reason ?? 'manual',
          concurrency: request.concurrency ?? EVAL_DEFAULT_CONCURRENCY,
          graders: evaluation.graders,
          passThreshold: evaluation.passThreshold,
          total: items.length,
          activation: options.activation ?? null,
          startedBy: userId,
        },
        items.map((item) => ({ itemId: item.id })),
      );
      // Its first items start in the background: the answer does not wait for them.
      void look(run.id);
      return run;
    },

    async get(organizationId: string, id: string): Promise<EvalRun> {
      const run = await stored(organizationId, id);
      const evaluation = await deps.evaluations.stored(organizationId, run.evaluationId);
      const items = await runs.items(run.id);
      return {
        ...summaryOf(
          run,
          items.map(({ item }) => item),
          evaluation?.name ?? '',
        ),
        items: items.map(toItemResult).sort(failuresFirst),
      };
    },

    /** Two eval runs of the same dataset, item by item (400 for runs of different datasets). */
    async compare(organizationId: string, aId: string, bId: string): Promise<EvalComparison> {
      const [a, b] = await Promise.all([stored(organizationId, aId), stored(organizationId, bId)]);
      const [evalA, evalB] = await Promise.all([
        deps.evaluations.stored(organizationId, a.evaluationId),
        deps.evaluations.stored(organizationId, b.evaluationId),
      ]);
      if (!evalA || !evalB) throw new NotFoundError(evaluationMessages.evalRunNotFound);
      if (evalA.datasetId !== evalB.datasetId)
        throw new BadRequestError(evaluationMessages.differentDatasets);
      const side = async (run: EvalRunRow, name: string) => {
        const items = await runs.items(run.id);
        return {
          summary: summaryOf(
            run,
            items.map(({ item }) => item),
            name,
          ),
          items: items.map(toItemResult),
        };
      };
      return compareRuns(await side(a, evalA.name), await side(b, evalB.name));
    },

    async list(organizationId: string, evaluationId: string): Promise<EvalRunSummary[]> {
      const evaluation = await evaluationOf(organizationId, evaluationId);
      const list = await runs.list(organizationId, evaluation.id);
      const figures = await runs.figures(list.map((run) => run.id));
      return list.map((run) =>
        summaryOf(
          run,
          figures.filter((item) => item.evalRunId === run.id),
          evaluation.name,
        ),
      );
    },

    /** Stops an eval run: its items not yet run are not run, the runs in progress are cancelled. */
    async cancel(organizationId: string, id: string): Promise<EvalRunSummary> {
      const run = await stored(organizationId, id);
      if (!(await runs.finish(run.id, 'cancelled'))) throw new ConflictError(evaluationMessages.notRunning);
      const inFlight = await runs.inFlight(run.id);
      await Promise.all(
        inFlight
          .filter((item) => item.executionId)
          .map((item) => deps.executions.cancel(organizationId, item.executionId!).catch(() => undefined)),
      );
      return summary({ ...run, status: 'cancelled', completedAt: new Date() });
    },

    /**
     * The drivers of a worker process (worker.ts): the end of an item run this process started wakes
     * its eval run; every SWEEP_MS it looks at every running one (runs started elsewhere, a worker that died).
     */
    startDriver(events: Pick<EventBus, 'listen'> | undefined) {
      driving = true;
      const unlisten = events?.listen(channels.events, {
        onNotify(list) {
          for (const event of list) {
            if (!endedEvents.has(event.type) || !('executionId' in event)) continue;
            const evalRunId = started.get(event.executionId);
            if (evalRunId === undefined) continue;
            started.delete(event.executionId);
            void look(evalRunId);
          }
        },
      });
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let nightlyAt = 0;
      const sweep = async () => {
        try {
          const now = deps.clock?.() ?? new Date();
          if (deps.nightly && now.getTime() - nightlyAt >= NIGHTLY_CHECK_MS) {
            nightlyAt = now.getTime();
            await deps.nightly.runDue(now);
          }
          await Promise.all((await runs.running()).map(look));
        } catch (error) {
          deps.logger?.warn({ err: error }, 'sweeping eval runs failed; trying again');
        }
        if (!stopped) timer = setTimeout(() => void sweep(), SWEEP_MS);
      };
      void sweep();
      return {
        /** Looks at every running eval run now (tests). */
        sweep: () => runs.running().then((ids) => Promise.all(ids.map(look))),
        async stop() {
          stopped = true;
          driving = false;
          clearTimeout(timer);
          unlisten?.();
          await Promise.all([...looking.values()].map((entry) => entry.done));
        },
      };
    },
  };
}
export type EvalRunsService = ReturnType<typeof createEvalRunsService>;
