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
import type { EgressByUse } from '../../platform/egress';
import type { Mailer, MailMessage } from '../../platform/mail';
import { sendEmail } from '../../platform/mail/sendgrid';
import { APPROVAL_LINK_TTL_MS, approvalLinkUrl, approvalMail } from './approval-links.mail';
import type { ApprovalLinksRepository, NewApprovalLink } from './approval-links.repository';
import type { ApprovalsService } from './approvals.service';
import { approvalNotice, postApprovalNotice } from './approval-webhook';

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

type Notice = 'request' | 'reminder';
/** An approval as its messages read it. */
type Approval = NonNullable<Awaited<ReturnType<ApprovalLinksRepository['approvalToMail']>>>;

/**
 * Where approvers hear of approvals, and approvals decided by email (docs/security.md, Approval links):
 * when a run asks for an approval, each approver gets an email with an Approve and a Reject link, each
 * bound to them and to that decision, single use, expiring with the approval (or after 7 days). The
 * link is the credential: its page needs no sign-in, only a click to confirm (opening it decides
 * nothing). The organization's notification URL (Slack, Teams) gets a message linking to the Inbox.
 * Halfway to a timeout, those who have not decided are reminded the same ways.
 */
export function createApprovalLinksService(deps: {
  repository: ApprovalLinksRepository;
  approvals: Pick<ApprovalsService, 'decide'>;
  /** The organization's members with their addresses and roles (modules/organizations, handed over by app.ts). */
  members: (organizationId: string) => Promise<LinkMember[]>;
  mailer: Mailer;
  /** The organization's active SendGrid connection (decrypted), if any: its approval emails go through it. */
  sendgridSettings: (organizationId: string) => Promise<Record<string, unknown> | undefined>;
  /** The organization's approval notification URL (Settings → Organization), decrypted; null when none. */
  notificationUrl: (organizationId: string) => Promise<string | null>;
  /** The notification URL is posted to as webhooks are, SendGrid called as the email tool calls it. */
  egress: EgressByUse;
  publicUrl: string;
  logger?: Logger;
  /** The links' clock (tests move it), as the approvals' decisions read it. */
  clock?: () => Date;
}) {
  const { repository, mailer, logger } = deps;
  const now = () => deps.clock?.() ?? new Date();

  /** Mints the approver's two links (stored as hashes) and answers their email. */
  function linksFor(approval: Approval, person: LinkMember, expiresAt: Date, kind: Notice) {
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
    const message = approvalMail(
      person.email,
      approval,
      { approve: url('approve'), reject: url('reject'), expiresAt },
      kind,
    );
    return { rows, message, person };
  }

  /**
   * How the organization's approval emails go, as its other emails do: through its SendGrid connection
   * when it has one, else the server's mail transport; null when neither can send.
   */
  async function senderFor(
    organizationId: string,
  ): Promise<((message: MailMessage) => Promise<void>) | null> {
    const settings = await deps.sendgridSettings(organizationId);
    if (settings?.apiKey && settings.fromEmail)
      return async ({ to, subject, text }) => {
        await sendEmail(settings, { to: [to], subject, text }, deps.egress.for('tool'));
      };
    return mailer.configured ? (message) => mailer.send(message) : null;
  }

  /** Emails the approvers; what failed, as lines for the run's log. */
  async function email(approval: Approval, people: LinkMember[], kind: Notice): Promise<string[]> {
    const send = await senderFor(approval.organizationId);
    if (!send) {
      // As account emails do: who it was for, never a link (it would let whoever reads the log decide).
      for (const person of people)
        logger?.info(
          { approvalId: approval.id, userId: person.userId, mail: 'approval' },
          'No mail transport configured (SMTP_URL, or a SendGrid connection): the approval message was not sent',
        );
      return [];
    }
    const expiresAt = approval.expiresAt ?? new Date(now().getTime() + APPROVAL_LINK_TTL_MS);
    const mails = people.map((person) => linksFor(approval, person, expiresAt, kind));
    await repository.create(mails.flatMap((m) => m.rows));
    const sent = await Promise.allSettled(mails.map((m) => send(m.message)));
    return mails.flatMap((m, i) => {
      const result = sent[i];
      if (result.status === 'fulfilled') return [];
      const error = result.reason as Error;
      logger?.warn(
        { approvalId: approval.id, userId: m.person.userId, mail: 'approval', err: describeError(error) },
        'The approval message could not be sent',
      );
      return [`The approval email to ${nameOf(m.person)} could not be sent: ${error.message}`];
    });
  }

  /** Posts to the organization's notification URL, if it has one; what failed, as lines for the run's log. */
  async function post(approval: Approval, kind: Notice): Promise<string[]> {
    const url = await deps.notificationUrl(approval.organizationId);
    if (!url) return [];
    try {
      await postApprovalNotice(deps.egress, url, approvalNotice(approval, kind, `${deps.publicUrl}/inbox`));
      return [];
    } catch (error) {
      logger?.warn({ approvalId: approval.id, err: describeError(error as Error) }, (error as Error).message);
      return [(error as Error).message];
    }
  }

  /**
   * Tells the approvers of a pending approval that it waits (a reminder: those who have not decided
   * yet), by email and at the notification URL; what could not be sent is a warning in the run's log.
   */
  async function notify(approvalId: string, kind: Notice = 'request'): Promise<void> {
    const approval = await repository.approvalToMail(approvalId);
    if (!approval || approval.status !== 'pending') return;
    const people = approversOf(approval.assignees, await deps.members(approval.organizationId)).filter(
      (person) => kind === 'request' || !approval.deciders.includes(person.userId),
    );
    const failed = (await Promise.all([email(approval, people, kind), post(approval, kind)])).flat();
    if (failed.length === 0) return;
    const at = now().toISOString();
    await repository.logToRun(
      approval.executionId,
      failed.map((message) => ({ at, level: 'warn' as const, message, nodeId: approval.nodeId })),
    );
  }

  /** Sends in the background, so the caller neither waits for the mail server nor fails with it. */
  const inBackground = (approvalId: string, kind: Notice) => {
    void notify(approvalId, kind).catch((error: unknown) => {
      logger?.warn(
        { approvalId, mail: 'approval', err: describeError(error as Error) },
        'The approval messages could not be sent',
      );
    });
  };

  /** The link of a token, refused with 404 when unknown and 410 when used or expired. */
  async function live(token: string) {
    const link = await repository.find(hashLinkToken(token));
    if (!link) throw new NotFoundError(approvalLinkMessages.notFound);
    if (link.usedAt) throw new LinkGoneError(approvalLinkMessages.used);
    if (link.expiresAt <= now()) throw new LinkGoneError(approvalLinkMessages.expired);
    return link;
  }

  return {
    /** Called by the run's wait once its new approval has committed (run-waits.ts); sends in the background. */
    notifyApprovers(approvalId: string): void {
      inBackground(approvalId, 'request');
    },

    /** Called by the wake-up loop for an approval due its reminder (run-wake-ups.ts); sends in the background. */
    remind(approvalId: string): void {
      inBackground(approvalId, 'reminder');
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
