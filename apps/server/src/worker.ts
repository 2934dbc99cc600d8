import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './platform/env';
import type { EventBus } from './platform/events';
import { HEARTBEAT_INTERVAL_MS, type SystemService } from './modules/system/system.service';
import { startScheduler } from './modules/triggers/scheduler';
import type { SchedulesRepository } from './modules/workflows/schedules.repository';
import { startEmailMonitor, type EmailMonitor } from './modules/triggers/email-monitor';
import type { EmailMonitorRepository } from './modules/triggers/email-monitor.repository';
import type { MicrosoftService } from './modules/microsoft/microsoft.service';
import type { TriggersService } from './modules/triggers/triggers.service';
import type { ExecutionRunner } from './modules/executions/execution-runner';
import { watchEventLoopLoad } from './platform/event-loop-load';
import { startExecutionWorker } from './modules/executions/execution-worker';
import type { LocalClaims } from './modules/executions/local-claims';
import type { ApprovalsRepository } from './modules/executions/approvals.repository';
import type { ApprovalLinksService } from './modules/executions/approval-links.service';
import { startRunWakeUps } from './modules/executions/run-wake-ups';
import type { Ingestion } from './modules/knowledge/ingest-document';
import { startKnowledgeWorker } from './modules/knowledge/knowledge-worker';
import type { EvalRunsService } from './modules/evaluations/eval-runs.service';

export type WorkerRoleOptions = {
  /** Its notifications wake idle loops when a run or a document is queued; without one they only poll. */
  bus?: Pick<EventBus, 'listen'>;
  services: {
    runner: ExecutionRunner;
    /** Where this process's run starts borrow an idle loop (ROLE=all): attached while the worker runs. */
    localClaims?: Pick<LocalClaims, 'attach' | 'detach'>;
    system: SystemService;
    triggers: Pick<TriggersService, 'fire'>;
    schedules: SchedulesRepository;
    emailMonitor: EmailMonitorRepository;
    microsoft: Pick<MicrosoftService, 'readInboxDelta'>;
    events: Pick<EventBus, 'publish'>;
    ingestion: Ingestion;
    /** Queues the waiting runs whose time has come (delays, approval timeouts) and takes due reminders. */
    approvalsRepository: Pick<ApprovalsRepository, 'wakeDue' | 'remindDue'>;
    /** Sends those reminders. */
    approvalLinks: Pick<ApprovalLinksService, 'remind'>;
    /** The waits' clock (tests move it). */
    clock?: () => Date;
    /** Eval runs: each worker drives the running ones (modules/evaluations/eval-runs.service.ts). */
    evaluations: { evalRuns: Pick<EvalRunsService, 'startDriver'> };
  };
  config: Pick<Config, 'runs' | 'role' | 'microsoft'>;
  logger?: Logger;
  /** On stop, how long running steps may take to finish and be stored (the worker's default when unset). */
  drainMs?: number;
  /** Records this worker as alive every few seconds (the system status counts live workers). */
  heartbeat?: boolean;
  /** How often the scheduler looks for due schedule triggers (its default when unset). */
  schedulePollMs?: number;
  /** Whether to read connected inboxes for email triggers (yes unless false; tests poll by hand). */
  emailMonitor?: boolean;
  /** Between two polls of one inbox (`config.microsoft.pollSeconds` when unset). */
  emailPollMs?: number;
  /** How often an idle knowledge worker looks for documents nobody woke it for (its default when unset). */
  knowledgePollMs?: number;
  /** How often the wake-up loop looks for due waits (its default when unset). */
  wakeUpPollMs?: number;
};

/**
 * The worker role of a process, a composition root beside app.ts (it wires executions and knowledge,
 * which therefore need not know each other), started the same way by the process entry (start.ts),
 * the test app and the bench: the execution worker (`config.runs.concurrency` claim loops), its run wake-ups over the
 * bus, the scheduler of schedule triggers (modules/triggers/scheduler.ts), the
 * email monitor of email triggers (modules/triggers/email-monitor.ts), the ingestion of knowledge
 * documents (modules/knowledge/knowledge-worker.ts), the wake-up of waiting runs whose time has come
 * (modules/executions/run-wake-ups.ts), the drivers of eval runs (modules/evaluations) and, with
 * `heartbeat`, this worker's heartbeat.
 * `stop()` stops the scheduler, the email monitor and the knowledge worker (documents in progress go
 * back to the queue) and forgets the heartbeat first, then lets the worker drain.
 */
export async function startWorkerRole(options: WorkerRoleOptions) {
  const { bus, services, config, logger } = options;
  const load = watchEventLoopLoad();
  const worker = startExecutionWorker({
    runner: services.runner,
    logger,
    concurrency: config.runs.concurrency,
    // A run whose worker died is claimed again once its lease lapses: look a few times per lease.
    pollMs: Math.min(2000, Math.max(200, Math.floor(config.runs.leaseMs / 3))),
    // A queued run wakes one idle loop; so does a run a stopping worker handed back.
    bus,
    drainMs: options.drainMs,
    load,
  });
  services.localClaims?.attach({ reserve: worker.reserve, ...services.runner.claimedAtStart });
  const scheduler = startScheduler({
    repository: services.schedules,
    triggers: services.triggers,
    logger,
    pollMs: options.schedulePollMs,
  });

  const emailMonitor: EmailMonitor | undefined =
    options.emailMonitor === false
      ? undefined
      : startEmailMonitor({
          repository: services.emailMonitor,
          microsoft: services.microsoft,
          triggers: services.triggers,
          events: services.events,
          logger,
          pollMs: options.emailPollMs ?? config.microsoft.pollSeconds * 1000,
        });

  const wakeUps = startRunWakeUps({
    repository: services.approvalsRepository,
    remind: services.approvalLinks.remind,
    clock: services.clock,
    pollMs: options.wakeUpPollMs,
    logger,
  });

  const knowledge = startKnowledgeWorker({
    ingestion: services.ingestion,
    bus,
    logger,
    pollMs: options.knowledgePollMs,
  });

  const evalRuns = services.evaluations.evalRuns.startDriver(bus);

  let stopHeartbeat: (() => Promise<void>) | undefined;
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  if (options.heartbeat) {
    const beat = () =>
      services.system.beat(workerId, config.role).catch((err) => logger?.warn({ err }, 'heartbeat failed'));
    await beat();
    const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
    stopHeartbeat = async () => {
      clearInterval(timer);
      await services.system.forget(workerId).catch(() => undefined);
    };
  }

  return {
    workerId,
    worker,
    scheduler,
    emailMonitor,
    knowledge,
    wakeUps,
    evalRuns,
    async stop() {
      services.localClaims?.detach();
      await scheduler.stop();
      await evalRuns.stop();
      await wakeUps.stop();
      await emailMonitor?.stop();
      await knowledge.stop();
      await stopHeartbeat?.();
      await worker.stop();
      load.stop();
    },
  };
}
export type WorkerRole = Awaited<ReturnType<typeof startWorkerRole>>;
