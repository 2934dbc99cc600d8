import type { InvitationPreview } from '@crewline/contracts';

/** Without a mail transport, nothing is mailed to the invitee: the inviter gets their link instead. */
export const NO_MAIL_VERIFY_HINT =
  'No mail server is configured: ask the person who invited you for a verification link, open it, then accept here.';

/**
 * Whether an unverified invitee asks the inviter for a verification link rather than Resend (which
 * mails nothing without SMTP_URL). A preview without the flag (an older server) keeps Resend.
 */
export function asksInviterForLink(preview: Pick<InvitationPreview, 'verificationMailed'>): boolean {
  return preview.verificationMailed === false;
}
