import { and, eq, isNull, sql } from 'drizzle-orm';
import { approvalDecisions, approvalLinks, approvals, workflowExecutions, type Db } from '@crewline/db';
import type { ExecutionLog } from '@crewline/contracts';
import { userDisplayName } from '../auth/users.columns';
import { runWorkflowColumns } from '../workflows/workflows.columns';
import { appendLogs, byId } from './run-rows';

/*
 * The emailed Approve and Reject links of approvals (docs/security.md, Approval links): one row per
 * approver and decision, found by the sha256 of its token (the token itself is never stored), used
 * once by compare-and-set on `used_at`.
 */

export type NewApprovalLink = {
  approvalId: string;
  userId: string;
  decision: 'approve' | 'reject';
  tokenHash: string;
  expiresAt: Date;
};

/** The approval's workflow's name (the workflows module's column, over the approval's row). */
const { workflowName } = runWorkflowColumns('approvals');

export function createApprovalLinksRepository(db: Db) {
  return {
    /** What an approval's messages say, with its organization (to read its members), its run and who decided. */
    async approvalToMail(approvalId: string) {
      const [row] = await db
        .select({
          id: approvals.id,
          organizationId: approvals.organizationId,
          executionId: approvals.executionId,
          nodeId: approvals.nodeId,
          title: approvals.title,
          message: approvals.message,
          status: approvals.status,
          assignees: approvals.assignees,
          expiresAt: approvals.expiresAt,
          workflowName,
          // Who decided already: a reminder goes to the others.
          deciders: sql<
            string[]
          >`array(select d.user_id from ${approvalDecisions} d where d.approval_id = ${approvals.id})`,
        })
        .from(approvals)
        .where(eq(approvals.id, approvalId))
        .limit(1);
      return row;
    },

    async create(links: NewApprovalLink[]): Promise<void> {
      if (links.length > 0) await db.insert(approvalLinks).values(links);
    },

    /** The link with its approval and the name of its approver; undefined for an unknown token. */
    async find(tokenHash: string) {
      const [row] = await db
        .select({
          id: approvalLinks.id,
          userId: approvalLinks.userId,
          decision: approvalLinks.decision,
          expiresAt: approvalLinks.expiresAt,
          usedAt: approvalLinks.usedAt,
          approverName: userDisplayName(approvalLinks.userId),
          approval: {
            id: approvals.id,
            organizationId: approvals.organizationId,
            title: approvals.title,
            message: approvals.message,
            fields: approvals.fields,
            status: approvals.status,
            expiresAt: approvals.expiresAt,
            workflowName,
          },
        })
        .from(approvalLinks)
        .innerJoin(approvals, eq(approvals.id, approvalLinks.approvalId))
        .where(eq(approvalLinks.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /**
     * Marks the link used by compare-and-set, so that two requests with the same link cannot both
     * decide: the time it was marked, or undefined when it was used (or had expired) already.
     */
    async use(id: string, now: Date): Promise<Date | undefined> {
      const [row] = await db
        .update(approvalLinks)
        .set({ usedAt: now })
        .where(
          and(
            eq(approvalLinks.id, id),
            isNull(approvalLinks.usedAt),
            sql`${approvalLinks.expiresAt} > ${now}`,
          ),
        )
        .returning({ usedAt: approvalLinks.usedAt });
      return row?.usedAt ?? undefined;
    },

    /** Gives the link back after its decision was refused (a missing field, say): it may be tried again. */
    async release(id: string, usedAt: Date): Promise<void> {
      await db
        .update(approvalLinks)
        .set({ usedAt: null })
        .where(and(eq(approvalLinks.id, id), eq(approvalLinks.usedAt, usedAt)));
    },

    /** Adds lines to a run's log (a send that failed), whatever its status. */
    async logToRun(executionId: string, logs: ExecutionLog[]): Promise<void> {
      await db
        .update(workflowExecutions)
        .set({ logs: appendLogs(logs) })
        .where(byId(executionId));
    },
  };
}
export type ApprovalLinksRepository = ReturnType<typeof createApprovalLinksRepository>;
