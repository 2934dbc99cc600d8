import type { MailMessage } from '../../platform/mail';

/** How long a link works when its approval has no timeout. */
export const APPROVAL_LINK_TTL_MS = 7 * 86_400_000;

/** The page an approval link opens (apps/web, features/approvals/pages/approval-link-page.tsx). */
export const approvalLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/approvals/email/${token}`;

/**
 * The email to one approver: what waits, in which workflow, the two links, and until when; a
 * reminder (halfway to the timeout, to those who have not decided) says so in its subject.
 */
export function approvalMail(
  to: string,
  approval: { title: string; message: string; workflowName: string | null; expiresAt: Date | null },
  links: { approve: string; reject: string; expiresAt: Date },
  kind: 'request' | 'reminder' = 'request',
): MailMessage {
  const until = approval.expiresAt
    ? `The approval times out on ${approval.expiresAt.toUTCString()}.`
    : `The approval has no timeout; these links work until ${links.expiresAt.toUTCString()}.`;
  return {
    to,
    subject: `${kind === 'reminder' ? 'Reminder: approval still needed' : 'Approval needed'}: ${approval.title}`,
    text: [
      approval.message.trim() || approval.title,
      '',
      `Workflow: ${approval.workflowName ?? 'a deleted workflow'}`,
      '',
      `Approve: ${links.approve}`,
      '',
      `Reject: ${links.reject}`,
      '',
      until,
      'Each link works once, for you only: it opens a page where you confirm the decision.',
    ].join('\n'),
  };
}
