import {
  approvalMessages,
  fieldAnswerErrors,
  type Approval,
  type ApprovalDecisionRequest,
  type DecisionVia,
} from '@crewline/contracts';
import { approvalStepResult } from '@crewline/engine';
import type { AuthContext } from '../../platform/auth/auth-context';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import { assignedTo, type ApprovalRow, type ApprovalsRepository } from './approvals.repository';
import { outcomeOf } from './run-waits';

/** Who may decide: a named member, a member of a named role, or anyone in the organization when it names neither. */
function isApprover(approval: ApprovalRow, auth: Pick<AuthContext, 'userId' | 'role'>): boolean {
  const { userIds = [], roles = [] } = approval.assignees;
  if (userIds.length === 0 && roles.length === 0) return true;
  return userIds.includes(auth.userId) || (roles as string[]).includes(auth.role);
}

/**
 * What the decisions so far decide under the approval's policy, or undefined while it stays open.
 * Quorum and all-must-approve count people: each decides at most once (the decisions' primary key).
 */
function verdict(approval: Pick<ApprovalRow, 'policy' | 'assignees' | 'decisions'>) {
  const { policy, decisions } = approval;
  const approves = decisions.filter((d) => d.decision === 'approve').length;
  const rejects = decisions.length - approves;
  if (policy === 'first') return decisions.length > 0 ? (approves > 0 ? 'approved' : 'rejected') : undefined;
  const named = approval.assignees.userIds ?? [];
  if (policy === 'all') {
    if (rejects > 0) return 'rejected';
    const approved = new Set(decisions.filter((d) => d.decision === 'approve').map((d) => d.userId));
    return named.length > 0 && named.every((id) => approved.has(id)) ? 'approved' : undefined;
  }
  if (approves >= policy.quorum) return 'approved';
  // Named members only: rejected once those left cannot make the quorum; with roles, by a quorum of rejections.
  const namedOnly = (approval.assignees.roles ?? []).length === 0 && named.length > 0;
  const left = namedOnly ? named.filter((id) => !decisions.some((d) => d.userId === id)).length : Infinity;
  if (approves + left < policy.quorum || rejects >= policy.quorum) return 'rejected';
  return undefined;
}

/**
 * Approvals (docs/product-rules.md, People in the loop): the inbox's reads and the decision, which
 * commits with the run's continuation in one transaction. Two approvers deciding at once take turns
 * on the approval's row lock; the second finds it closed and gets 409, so one decision takes effect.
 */
export function createApprovalsService(deps: {
  repository: ApprovalsRepository;
  events: Pick<EventBus, 'statementNotification'>;
  /** The decisions' clock (tests move it); an approval past its timeout takes no decision. */
  clock?: () => Date;
}) {
  const { repository, events } = deps;
  const now = () => deps.clock?.() ?? new Date();

  const toApproval = (row: ApprovalRow, auth: Pick<AuthContext, 'userId' | 'role'>): Approval => ({
    id: row.id,
    executionId: row.executionId,
    workflowId: row.workflowId,
    workflowName: row.workflowName,
    nodeId: row.nodeId,
    title: row.title,
    message: row.message,
    status: row.status,
    policy: row.policy,
    assignees: row.assignees,
    fields: row.fields,
    decisions: row.decisions,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    ...(row.toolCall ? { toolCall: { tool: row.toolCall.tool, arguments: row.toolCall.arguments } } : {}),
    canDecide:
      row.status === 'pending' &&
      isApprover(row, auth) &&
      !row.decisions.some((d) => d.userId === auth.userId) &&
      !(row.expiresAt && row.expiresAt <= now()),
  });

  async function get(auth: AuthContext, id: string): Promise<Approval> {
    const row = await repository.get(auth.organizationId, requireUuid(id, approvalMessages.notFound));
    if (!row) throw new NotFoundError(approvalMessages.notFound);
    return toApproval(row, auth);
  }

  return {
    /** GET /api/approvals: pending (oldest first) or decided; `mine`: those the caller may decide. */
    async list(
      auth: AuthContext,
      query: { status: 'pending' | 'decided'; mine?: boolean; executionId?: string },
    ) {
      const rows = await repository.list(auth.organizationId, {
        status: query.status,
        executionId: query.executionId,
        assigned: query.mine ? assignedTo(auth.userId, auth.role) : undefined,
      });
      const approvals = rows.map((row) => toApproval(row, auth));
      // "Mine" is what waits for me: not those I already decided (a quorum still open).
      return query.mine && query.status === 'pending' ? approvals.filter((a) => a.canDecide) : approvals;
    },

    get,

    /**
     * POST /api/approvals/:id/decision. In one transaction, on the approval's locked row: the checks,
     * the person's decision, and, when the policy is satisfied, the approval closed by compare-and-set,
     * its step stored and the run queued again (only if it still waits; else nothing commits).
     */
    async decide(
      auth: AuthContext,
      id: string,
      // `email`: an emailed link's decision (approval-links.service.ts), which the API's body cannot claim.
      request: Omit<ApprovalDecisionRequest, 'via'> & { via?: DecisionVia },
    ): Promise<Approval> {
      const via: DecisionVia = auth.apiKeyId ? 'api' : (request.via ?? 'inbox');
      const at = now();
      const decided = await repository.decideWithin(
        auth.organizationId,
        requireUuid(id, approvalMessages.notFound),
        async (approval, tx) => {
          if (approval.status !== 'pending') throw new ConflictError(approvalMessages.decided);
          if (approval.expiresAt && approval.expiresAt <= at)
            throw new ConflictError(approvalMessages.expired);
          if (!isApprover(approval, auth)) throw new ForbiddenError(approvalMessages.notAllowed);
          const fields = request.fields ?? {};
          const problems = Object.entries(fieldAnswerErrors(approval.fields, fields, request.decision));
          if (problems.length > 0)
            throw new BadRequestError(
              problems[0][1],
              problems.map(([name, message]) => ({ path: `fields.${name}`, message })),
            );
          const added = await tx.addDecision({
            approvalId: approval.id,
            userId: auth.userId,
            decision: request.decision,
            comment: request.comment?.trim() || null,
            fields,
            via,
            at,
          });
          if (!added) throw new ConflictError(approvalMessages.alreadyYours);
          const current = await tx.reread(approval.id);
          const ids = {
            organizationId: auth.organizationId,
            executionId: approval.executionId,
            workflowId: approval.workflowId,
          };
          const status: 'approved' | 'rejected' | undefined = verdict(current);
          if (!status) {
            await tx.touched(
              approval.id,
              events.statementNotification({
                type: 'approval_decided',
                ...ids,
                approvalId: approval.id,
                status: 'pending',
              }),
            );
            return current;
          }
          await tx.close(approval.id, status, at);
          const ended = { type: 'approval_decided', ...ids, approvalId: approval.id, status } as const;
          if (approval.callId) {
            // A tool call's: the agent step goes on from its conversation in the run's next attempt.
            if (!(await tx.resumeWithoutStep(approval.executionId, at, events.statementNotification(ended))))
              throw new ConflictError(approvalMessages.decided);
            return { ...current, status, decidedAt: at } satisfies ApprovalRow;
          }
          const outcome = outcomeOf(status, approval.onTimeout, current.decisions);
          const result = approvalStepResult(outcome);
          const executionTime = Math.max(0, at.getTime() - approval.createdAt.getTime());
          const by = current.decisions.at(-1)?.userName ?? auth.userId;
          const resumed = await tx.resumeRun(
            approval.executionId,
            {
              stepId: approval.nodeId,
              output: {
                content: result.content,
                metadata: { baseNodeId: approval.nodeId },
                executionTime,
                usage: result.usage,
                kind: 'approval',
                data: outcome,
                status: 'completed',
              },
              evaluation: {
                kind: 'approval',
                evaluated: [{ name: 'decision', expression: approval.title, value: outcome.decision }],
                result: outcome,
              },
              startedAt: approval.createdAt,
              completedAt: at,
              logs: [
                {
                  at: at.toISOString(),
                  level: 'info',
                  message: `${status === 'approved' ? 'Approved' : 'Rejected'} by ${by}: ${approval.title}`,
                  nodeId: approval.nodeId,
                },
              ],
            },
            events.statementNotification([
              ended,
              {
                type: 'execution_node_completed',
                ...ids,
                nodeId: approval.nodeId,
                baseNodeId: approval.nodeId,
                executionTime,
                totalTokens: 0,
              },
            ]),
          );
          // The run no longer waits (cancelled, or its timeout took it a moment ago): nothing commits.
          if (!resumed) throw new ConflictError(approvalMessages.decided);
          return { ...current, status, decidedAt: at } satisfies ApprovalRow;
        },
      );
      if (!decided) throw new NotFoundError(approvalMessages.notFound);
      return toApproval(decided, auth);
    },
  };
}
export type ApprovalsService = ReturnType<typeof createApprovalsService>;
