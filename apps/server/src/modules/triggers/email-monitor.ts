import type { TriggerConfig } from '@crewline/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../platform/errors';
import { createPollingLoop } from '../../platform/polling-loop';
import type { EventBus } from '../../platform/events';
import type { InboxMessage, MicrosoftService } from '../microsoft/microsoft.service';
import type { DueInbox, EmailMonitorRepository, EmailWorkflow } from './email-monitor.repository';
import { isTrustedSender } from './sender-trust';
import { AlreadyTakenError, type TriggersService } from './triggers.service';

/** How long the records of handled messages are kept (a re-listed message older than that is ignored anyway). */
const EMAIL_RECORD_RETENTION_MS = 30 * 24 * 60 * 60_000;
/**
 * Messages received longer ago than this never start a run: shorter than the retention, so a message
 * whose record was deleted (and which Graph lists again, e.g. marked read) cannot start a second one.
 */
const MAX_MESSAGE_AGE_MS = EMAIL_RECORD_RETENTION_MS - 24 * 60 * 60_000;
/** How long a claimed poll is ours; renewed after every page, so only a dead monitor's poll lapses. */
const POLL_LEASE_MS = 5 * 60_000;
/** How often a monitor deletes old records. */
const FORGET_EVERY_MS = 60 * 60_000;
/** The longest a monitor waits between two scans for due inboxes. */
const MAX_SCAN_MS = 5_000;

export type EmailMonitorOptions = {
  repository: EmailMonitorRepository;
  microsoft: Pick<MicrosoftService, 'readInboxDelta'>;
  triggers: Pick<TriggersService, 'fire'>;
  events: Pick<EventBus, 'publish'>;
  logger?: Pick<Logger, 'warn' | 'info' | 'debug'>;
  /** Between two polls of one inbox (config.microsoft.pollSeconds). */
  pollMs: number;
  /** Between two scans for due inboxes (the smaller of pollMs and 5 s by default). */
  scanMs?: number;
  /** The clock (tests move it); the wall clock by default. */
  now?: () => Date;
};

/** Whether a message is for the workflow: its address in To or Cc, its subject filter in the subject. */
export function messageMatches(message: InboxMessage, config: TriggerConfig): boolean {
  const address = config.emailAddress?.trim().toLowerCase();
  if (!address) return false;
  const recipients = [...message.to, ...message.cc].map((recipient) => recipient.trim().toLowerCase());
  if (!recipients.includes(address)) return false;
  const filter = config.subjectFilter?.trim().toLowerCase() ?? '';
  return filter === '' || message.subject.toLowerCase().includes(filter);
}

/** A log-safe description of an error: its name and message only (no stack, request or body). */
const describe = (error: unknown) =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);

/**
 * Reads the Microsoft 365 inbox of each organization that has an active email workflow and starts
 * the runs of the messages that match (docs/architecture.md, Triggers). Every worker process runs
 * one. An inbox's poll is claimed by a compare-and-set on `microsoft_tokens.next_poll_at` (one poll
 * per organization at a time across monitors), reads Graph's inbox delta from the stored delta link,
 * following every next link, and stores the round's new delta link. Each matching message starts a
 * run through `triggers.fire()` whose transaction records (workflow, message): a message starts at
 * most one run per workflow, however often it is listed or by however many monitors.
 */
export function createEmailMonitor(options: EmailMonitorOptions) {
  const { repository, microsoft, triggers, events, logger, pollMs } = options;
  const now = options.now ?? (() => new Date());
  let lastForget = -Infinity;

  /** Starts the runs a message asks for; how many. Throws what should end the round (retried next poll). */
  async function handle(
    organizationId: string,
    message: InboxMessage,
    workflows: EmailWorkflow[],
    connectedAt: Date,
    trustedDomains: string[],
  ): Promise<number> {
    const received = Date.parse(message.receivedAt);
    if (!Number.isFinite(received) || received < connectedAt.getTime()) return 0;
    if (received < now().getTime() - MAX_MESSAGE_AGE_MS) return 0;
    let started = 0;
    for (const workflow of workflows) {
      if (!messageMatches(message, workflow.triggerConfig)) continue;
      try {
        await triggers.fire({
          organizationId,
          workflowId: workflow.id,
          trigger: 'email',
          // A sender outside the organization's trusted domains (or their subdomains): an untrusted run.
          untrusted: !isTrustedSender(message.from, trustedDomains),
          input: {
            from: message.from,
            to: message.to,
            subject: message.subject,
            body: message.body,
            receivedAt: message.receivedAt,
            messageId: message.id,
          },
          prepare: async (executionId, executor) => {
            const recorded = await repository.recordMessage(executor, {
              organizationId,
              workflowId: workflow.id,
              messageId: message.id,
              executionId,
            });
            if (!recorded) throw new AlreadyTakenError();
          },
        });
        started++;
      } catch (error) {
        if (error instanceof AlreadyTakenError) continue;
        // The workflow cannot run (paused meanwhile, no longer valid): fire() kept why on it. Its
        // next message is its next chance. Anything else (the database, the queue) ends the round,
        // and the next poll reads these messages again.
        if (error instanceof AppError && error.statusCode < 500) {
          logger?.warn(
            { organizationId, workflowId: workflow.id, error: describe(error) },
            'an email run could not start',
          );
          continue;
        }
        throw error;
      }
    }
    return started;
  }

  /** One poll of one due inbox, if this monitor claims it; how many runs it started. Never throws. */
  async function pollInbox(due: DueInbox): Promise<number> {
    const { organizationId } = due;
    const claimedAt = now();
    let lease = new Date(claimedAt.getTime() + POLL_LEASE_MS);
    const claimed = await repository.claim(organizationId, due.nextPollAt, lease);
    if (!claimed) return 0;
    let started = 0;
    let deltaLink: string | null = null;
    try {
      const workflows = await repository.emailWorkflows(organizationId);
      const trustedDomains = await repository.trustedSenderDomains(organizationId);
      let link = claimed.deltaLink;
      let restarted = false;
      for (;;) {
        const result = await microsoft.readInboxDelta(organizationId, link);
        if (result.status === 'expired') {
          if (restarted) throw new Error('Microsoft Graph no longer knows the delta link');
          // Graph forgot where we were: a fresh round lists the inbox again; handled messages are recorded.
          logger?.info({ organizationId }, 'the inbox delta link expired: reading the inbox afresh');
          link = null;
          restarted = true;
          continue;
        }
        if (result.status === 'broken') {
          await events.publish({ type: 'microsoft_connection_broken', organizationId });
          logger?.warn(
            { organizationId },
            'Microsoft refused to renew the tokens: the inbox is no longer read',
          );
          return started;
        }
        if (result.status === 'disconnected') return started;
        for (const message of result.page.messages) {
          started += await handle(organizationId, message, workflows, claimed.connectedAt, trustedDomains);
        }
        if (result.page.deltaLink) {
          deltaLink = result.page.deltaLink;
          return started;
        }
        link = result.page.nextLink ?? null;
        const renewed = new Date(now().getTime() + POLL_LEASE_MS);
        // Not ours any more (disconnected, reconnected, or the lease lapsed): stop quietly.
        if (!(await repository.renew(organizationId, lease, renewed))) return started;
        lease = renewed;
      }
    } catch (error) {
      logger?.warn({ organizationId, error: describe(error) }, 'could not read a Microsoft 365 inbox');
      return started;
    } finally {
      try {
        await repository.release(organizationId, lease, {
          nextPollAt: new Date(claimedAt.getTime() + pollMs),
          deltaLink,
        });
      } catch (error) {
        logger?.warn({ organizationId, error: describe(error) }, 'could not end a Microsoft 365 inbox poll');
      }
    }
  }

  /** One scan: polls every due inbox this monitor claims; how many runs it started. Never throws. */
  async function poll(): Promise<number> {
    let due: DueInbox[];
    try {
      if (now().getTime() - lastForget >= FORGET_EVERY_MS) {
        lastForget = now().getTime();
        await repository.forgetBefore(new Date(now().getTime() - EMAIL_RECORD_RETENTION_MS));
      }
      due = await repository.due(now());
    } catch (error) {
      logger?.warn({ error: describe(error) }, 'could not look for inboxes to read');
      return 0;
    }
    let started = 0;
    for (const inbox of due) {
      try {
        started += await pollInbox(inbox);
      } catch (error) {
        // The claim itself failed (the database): the inbox stays due.
        logger?.warn(
          { organizationId: inbox.organizationId, error: describe(error) },
          'could not claim a Microsoft 365 inbox poll',
        );
      }
    }
    return started;
  }

  const loop = createPollingLoop(poll, options.scanMs ?? Math.min(pollMs, MAX_SCAN_MS));
  return {
    poll,
    /** Scans now and then every `scanMs` until stop(). */
    start: loop.start,
    /** No scan starts after this; resolves once the one in progress has ended. */
    stop: loop.stop,
  };
}
export type EmailMonitor = ReturnType<typeof createEmailMonitor>;

export function startEmailMonitor(options: EmailMonitorOptions): EmailMonitor {
  const monitor = createEmailMonitor(options);
  monitor.start();
  return monitor;
}
