import type { MailMessage } from '../../platform/mail';

/** How long a verification link works. */
export const VERIFICATION_TTL_MS = 24 * 3_600_000;
/** How long a password reset link works. */
export const RESET_TTL_MS = 3_600_000;

export function verificationMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Verify your email address for Crewline',
    text: [
      `Open this link to verify that ${to} is your email address on Crewline:`,
      '',
      link,
      '',
      'The link works once and expires in 24 hours. If you did not use this address on Crewline, ignore this message.',
    ].join('\n'),
  };
}

export function resetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Set a new Crewline password',
    text: [
      `Someone asked to set a new password for the Crewline account of ${to}. Open this link to choose one:`,
      '',
      link,
      '',
      'The link works once and expires in 1 hour. If you did not ask, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}
