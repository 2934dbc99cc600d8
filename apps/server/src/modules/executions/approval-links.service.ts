import type { Logger } from 'pino';
import {
  approvalLinkMessages,
  approvalMessages,
  type ApprovalAssignees,
  type ApprovalLinkDecision,
  type ApprovalLinkView,
  type ApprovalStatus,
} from '@crewline/contracts';
import { hashLinkToken, newLinkToken } from '../../platform/auth/link-tokens';
import { AppError, ForbiddenError, NotFoundError } from '../../platform/errors';
import { describeError } from '../../platform/logger';
import type { Mailer } from '../../platform/mail';
import { APPROVAL_LINK_TTL_MS, approvalLinkUrl, approvalMail } from './approval-links.mail';
import type { ApprovalLinksRepository, NewApprovalLink } from './approval-links.repository';
import type { ApprovalsService } from './approvals.service';

/** 410: a link that was used or has expired (it existed: an unknown token is 404). */
class LinkGoneError extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}

/** A member of the organization as the approval links read them (the team module's list, handed over). */
export type LinkMember = {
  userId: string;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
};

const nameOf = (m: LinkMember) => [m.firstName, m.lastName].filter(Boolean).join(' ').trim() || m.username;

/** The members who decide an approval: those it names, those of the roles it names, or everyone when it names neither. */
function approversOf(assignees: ApprovalAssignees, members: LinkMember[]): LinkMember[] {
  const { userIds = [], roles = [] } = assignees;
  if (userIds.length === 0 && roles.length === 0) return members;
  return members.filter((m) => userIds.includes(m.userId) || (roles as string[]).includes(m.role));
}

/**
 * Approvals decided by email (docs/security.md, Approval links): when a run asks for an approval, each
 * approver gets an email with an Approve and a Reject link, each bound to them and to that decision,
 * single use, expiring with the approval (or after 7 days). The link is the credential: its page
 * needs no sign-in, only a click to confirm (opening it decides nothing).
 */
export function createApprovalLinksService(deps: {
  repository: ApprovalLinksRepository;
  approvals: Pick<ApprovalsService, 'decide'>;
  /** The organization's members with their addresses and roles (modules/organizations, handed over by app.ts). */
  members: (organizationId: string) => Promise<LinkMember[]>;
  mailer: Mailer;
  publicUrl: string;
  logger?: Logger;
  /** The links' clock (tests move it), as the approvals' decisions read it. */
  clock?: () => Date;
}) {
  const { repository, mailer, logger } = deps;
  const now = () => deps.clock?.() ?? new Date();

  /** Mints the approver's two links (stored as hashes) and answers their email. */
  function linksFor(
    approval: NonNullable<Awaited<ReturnType<ApprovalLinksRepository['approvalToMail']>>>,
    person: LinkMember,
    expiresAt: Date,
  ) {
    const rows: NewApprovalLink[] = [];
    const url = (decision: 'approve' | 'reject') => {
      const token = newLinkToken();
      rows.push({
        approvalId: approval.id,
        userId: person.userId,
        decision,
        tokenHash: hashLinkToken(token),
        expiresAt,
      });
      return approvalLinkUrl(deps.publicUrl, token);
    };
    const message = approvalMail(person.email, approval, {
      approve: url('approve'),
      reject: url('reject'),
      expiresAt,
    });
    return { rows, message, person };
  }

  /** Emails every approver of a new approval; a send that fails is a warning in the run's log. */
  async function notify(approvalId: string): Promise<void> {
    const approval = await repository.approvalToMail(approvalId);
    if (!approval || approval.status !== 'pending') return;
    const people = approversOf(approval.assignees, await deps.members(approval.organizationId));
    if (!mailer.configured) {
      // As account emails do: who it was for, never a link (it would let whoever reads the log decide).
      for (const person of people)
        logger?.info(
          { approvalId, userId: person.userId, mail: 'approval' },
          'No mail transport configured (SMTP_URL): the approval message was not sent',
        );
      return;
    }
    const expiresAt = approval.expiresAt ?? new Date(now().getTime() + APPROVAL_LINK_TTL_MS);
    const mails = people.map((person) => linksFor(approval, person, expiresAt));
    await repository.create(mails.flatMap((m) => m.rows));
    const sent = await Promise.allSettled(mails.map((m) => mailer.send(m.message)));
    const failed = mails.flatMap((m, i) => {
      const result = sent[i];
      return result.status === 'rejected' ? [{ person: m.person, error: result.reason as Error }] : [];
    });
    if (failed.length === 0) return;
    for (const { person, error } of failed)
      logger?.warn(
        { approvalId, userId: person.userId, mail: 'approval', err: describeError(error) },
        'The approval message could not be sent',
      );
    const at = now().toISOString();
    await repository.logToRun(
      approval.executionId,
      failed.map(({ person, error }) => ({
        at,
        level: 'warn' as const,
        message: `The approval email to ${nameOf(person)} could not be sent: ${error.message}`,
        nodeId: approval.nodeId,
      })),
    );
  }

  /** The link of a token, refused with 404 when unknown and 410 when used or expired. */
  async function live(token: string) {
    const link = await repository.find(hashLinkToken(token));
    if (!link) throw new NotFoundError(approvalLinkMessages.notFound);
    if (link.usedAt) throw new LinkGoneError(approvalLinkMessages.used);
    if (link.expiresAt <= now()) throw new LinkGoneError(approvalLinkMessages.expired);
    return link;
  }

  return {
    /**
     * Called by the run's wait once its new approval has committed (run-waits.ts): sends in the
     * background, so the run's attempt neither waits for the mail server nor fails with it.
     */
    notifyApprovers(approvalId: string): void {
      void notify(approvalId).catch((error: unknown) => {
        logger?.warn(
          { approvalId, mail: 'approval', err: describeError(error as Error) },
          'The approval messages could not be sent',
        );
      });
    },

    /** For tests: the same, awaited. */
    notify,

    /** GET /api/approval-links/:token: what confirming it will decide. Opening it changes nothing. */
    async view(token: string): Promise<ApprovalLinkView> {
      const { approval, decision, approverName } = await live(token);
      return {
        approval: {
          title: approval.title,
          message: approval.message,
          workflowName: approval.workflowName,
          fields: approval.fields,
          status: approval.status,
          expiresAt: approval.expiresAt?.toISOString() ?? null,
        },
        decision,
        approver: { name: approverName ?? '' },
      };
    },

    /**
     * POST /api/approval-links/:token: the link's decision as its approver (via `email`). The link is
     * marked used first, by compare-and-set, so the same link cannot decide twice; a decision the
     * approval refuses (400, 403, 409) gives it back, and the approval's own answer stands.
     */
    async decide(token: string, body: ApprovalLinkDecision): Promise<{ status: ApprovalStatus }> {
      const link = await live(token);
      const usedAt = await repository.use(link.id, now());
      if (!usedAt) {
        // Used (or expired) a moment ago, by another request: say which.
        await live(token);
        throw new LinkGoneError(approvalLinkMessages.used);
      }
      try {
        const { organizationId } = link.approval;
        // The approver as they are now: one who left the organization decides nothing.
        const member = (await deps.members(organizationId)).find((m) => m.userId === link.userId);
        if (!member) throw new ForbiddenError(approvalMessages.notAllowed);
        const decided = await deps.approvals.decide(
          { sessionId: '', userId: member.userId, organizationId, role: member.role },
          link.approval.id,
          { decision: link.decision, comment: body.comment, fields: body.fields, via: 'email' },
        );
        return { status: decided.status };
      } catch (error) {
        await repository.release(link.id, usedAt);
        throw error;
      }
    },
  };
}
export type ApprovalLinksService = ReturnType<typeof createApprovalLinksService>;
