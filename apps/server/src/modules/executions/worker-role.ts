import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../../platform/env';
import type { EventBus, PgEventBus } from '../../platform/events';
import { HEARTBEAT_INTERVAL_MS, type SystemService } from '../system/system.service';
import { startScheduler, type SchedulesRepository } from '../triggers/scheduler';
import { startEmailMonitor, type EmailMonitor } from '../triggers/email-monitor';
import type { EmailMonitorRepository } from '../triggers/email-monitor.repository';
import type { MicrosoftService } from '../microsoft/microsoft.service';
import type { TriggersService } from '../triggers/triggers.service';
import type { ExecutionRunner } from './execution-runner';
import { startExecutionWorker } from './execution-worker';
import { RUNS_CHANNEL } from './executions.repository';
import type { Ingestion } from '../knowledge/ingest-document';
import { startKnowledgeWorker } from '../knowledge/knowledge-worker';

export type WorkerRoleOptions = {
  /** Its LISTEN connection wakes idle loops when a run is queued; without one they only poll. */
  bus?: Pick<PgEventBus, 'onChannel' | 'subscribe'>;
  services: {
    runner: ExecutionRunner;
    system: SystemService;
    triggers: Pick<TriggersService, 'fire'>;
    schedules: SchedulesRepository;
    emailMonitor: EmailMonitorRepository;
    microsoft: Pick<MicrosoftService, 'readInboxDelta'>;
    events: Pick<EventBus, 'publish'>;
    ingestion: Ingestion;
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
};

/**
 * The worker role of a process, started the same way by the process entry (main.ts), the test app and
 * the bench: the execution worker (`config.runs.concurrency` claim loops), its run wake-ups over the
 * bus, the scheduler of schedule triggers (modules/triggers/scheduler.ts), the
 * email monitor of email triggers (modules/triggers/email-monitor.ts), the ingestion of knowledge
 * documents (modules/knowledge/knowledge-worker.ts) and, with `heartbeat`, this worker's heartbeat.
 * `stop()` stops the scheduler, the email monitor and the knowledge worker (documents in progress go
 * back to the queue) and forgets the heartbeat first, then lets the worker drain.
 */
export async function startWorkerRole(options: WorkerRoleOptions) {
  const { bus, services, config, logger } = options;
  const worker = startExecutionWorker({
    runner: services.runner,
    logger,
    concurrency: config.runs.concurrency,
    // A run whose worker died is claimed again once its lease lapses: look a few times per lease.
    pollMs: Math.min(2000, Math.max(200, Math.floor(config.runs.leaseMs / 3))),
    // A queued run's created event wakes one idle loop; so does a run a stopping worker handed back.
    onRunQueued:
      bus &&
      ((wakeOne, wakeAll) => {
        const created = bus.subscribe((event) => {
          if (event.type === 'workflow_execution_created') wakeOne();
        });
        const handedBack = bus.onChannel(RUNS_CHANNEL, { onNotify: wakeOne, onMissed: wakeAll });
        return () => {
          created();
          handedBack();
        };
      }),
    drainMs: options.drainMs,
  });
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

  const knowledge = startKnowledgeWorker({
    ingestion: services.ingestion,
    bus,
    logger,
    pollMs: options.knowledgePollMs,
  });

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
    async stop() {
      await scheduler.stop();
      await emailMonitor?.stop();
      await knowledge.stop();
      await stopHeartbeat?.();
      await worker.stop();
    },
  };
}
export type WorkerRole = Awaited<ReturnType<typeof startWorkerRole>>;
