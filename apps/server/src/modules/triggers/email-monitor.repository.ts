import type { Db, SqlExecutor } from '@crewline/db';
import type { TriggerConfig } from '@crewline/contracts';
import {
  CLAIM_SQL,
  dueInboxesSql,
  isConnected,
  RELEASE_SQL,
  RENEW_SQL,
} from '../microsoft/microsoft.columns';
import { TRUSTED_SENDER_DOMAINS_SQL } from '../auth/organization-settings.columns';
import { ACTIVE_EMAIL_WORKFLOWS_SQL, hasActiveEmailWorkflow } from '../workflows/workflows.columns';

/** Inboxes one scan returns at most; the rest are due still and go in the next scan. */
const DUE_BATCH = 20;
/** Rows one clean-up deletes at most: it stays cheap, and the next one goes on. */
const FORGET_BATCH = 5000;

export type DueInbox = { organizationId: string; nextPollAt: Date | null };
export type ClaimedInbox = { connectedAt: Date; deltaLink: string | null };
export type EmailWorkflow = { id: string; triggerConfig: TriggerConfig };

// Only while the organization is still connected: a poll in flight during a disconnect starts nothing more.
const RECORD_SQL = `insert into email_trigger_messages (workflow_id, message_id, execution_id)
  select $1, $2, $3 where ${isConnected('$4')}
  on conflict do nothing`;
// Only organizations with an active email workflow have their inbox read.
const DUE_SQL = dueInboxesSql(hasActiveEmailWorkflow('t.organization_id'));
const FORGET_SQL = `delete from email_trigger_messages where ctid in (
  select ctid from email_trigger_messages where created_at < $1 limit ${FORGET_BATCH})`;

type Result = { rowCount?: number | null; rows: unknown[] };

/** The email monitor's reads and writes (modules/triggers/email-monitor.ts). */
export function createEmailMonitorRepository(db: Db) {
  const pool: SqlExecutor = { executeSql: (text, values) => db.$client.query(text, values) };
  const run = async (text: string, values: unknown[], executor: SqlExecutor = pool) =>
    (await executor.executeSql(text, values)) as Result;

  return {
    /**
     * Connected (not broken) inboxes whose poll is due at `now` and whose organization has at least
     * one active email workflow, the longest waiting first.
     */
    async due(now: Date, limit = DUE_BATCH): Promise<DueInbox[]> {
      const rows = (await run(DUE_SQL, [now, limit])).rows as {
        organization_id: string;
        next_poll_at: Date | null;
      }[];
      return rows.map((row) => ({
        organizationId: row.organization_id,
        nextPollAt: row.next_poll_at === null ? null : new Date(row.next_poll_at),
      }));
    },

    /**
     * Takes the inbox's poll (compare-and-set on `next_poll_at`, from the value the scan saw to
     * `leaseUntil`); undefined when another monitor took it first or the connection changed.
     */
    async claim(
      organizationId: string,
      seen: Date | null,
      leaseUntil: Date,
    ): Promise<ClaimedInbox | undefined> {
      const result = await run(CLAIM_SQL, [organizationId, seen, leaseUntil]);
      const row = result.rows[0] as { connected_at: Date; delta_link: string | null } | undefined;
      return row && { connectedAt: new Date(row.connected_at), deltaLink: row.delta_link };
    },

    /** Extends a held poll; false when it is no longer ours (lease lapsed, reconnected, disconnected). */
    async renew(organizationId: string, leaseUntil: Date, next: Date): Promise<boolean> {
      return ((await run(RENEW_SQL, [organizationId, leaseUntil, next])).rowCount ?? 0) > 0;
    },

    /** Ends a held poll: the next one at `nextPollAt`, and the round's delta link when it completed. */
    async release(
      organizationId: string,
      leaseUntil: Date,
      values: { nextPollAt: Date; deltaLink: string | null },
    ): Promise<boolean> {
      const result = await run(RELEASE_SQL, [
        organizationId,
        leaseUntil,
        values.nextPollAt,
        values.deltaLink,
      ]);
      return (result.rowCount ?? 0) > 0;
    },

    /** The organization's active email workflows. */
    async emailWorkflows(organizationId: string): Promise<EmailWorkflow[]> {
      const rows = (await run(ACTIVE_EMAIL_WORKFLOWS_SQL, [organizationId])).rows as {
        id: string;
        trigger_config: TriggerConfig;
      }[];
      return rows.map((row) => ({ id: row.id, triggerConfig: row.trigger_config }));
    },

    /** The organization's trusted sender domains (Settings → Organization): email from others starts untrusted runs. */
    async trustedSenderDomains(organizationId: string): Promise<string[]> {
      const rows = (await run(TRUSTED_SENDER_DOMAINS_SQL, [organizationId])).rows as { domains: string[] }[];
      return rows[0]?.domains ?? [];
    },

    /**
     * Records that `messageId` started a run of the workflow, on `executor` (the run's transaction).
     * False when it already had (the run must not start) or the organization is no longer connected.
     */
    async recordMessage(
      executor: SqlExecutor,
      values: { organizationId: string; workflowId: string; messageId: string; executionId: string },
    ): Promise<boolean> {
      const result = await run(
        RECORD_SQL,
        [values.workflowId, values.messageId, values.executionId, values.organizationId],
        executor,
      );
      return (result.rowCount ?? 0) > 0;
    },

    /** Deletes (a batch of) the records older than `before`; how many. */
    async forgetBefore(before: Date): Promise<number> {
      return (await run(FORGET_SQL, [before])).rowCount ?? 0;
    },
  };
}
export type EmailMonitorRepository = ReturnType<typeof createEmailMonitorRepository>;
