import type { Egress } from '../egress';

/*
 * Email through an organization's SendGrid connection (not the server's own mailer, mailer.ts): the
 * `communication` tool (modules/tools), workflow output delivery (modules/executions) and team
 * invitations (modules/organizations) send with it.
 */

const DEFAULT_SENDGRID_URL = 'https://api.sendgrid.com';

/** Shown when an organization has no usable SendGrid configuration. */
const SENDGRID_NOT_CONFIGURED =
  'No SendGrid connection is configured. Add its API key and sender address in Settings → Tools.';

export type EmailSettings = { apiKey?: unknown; fromEmail?: unknown; fromName?: unknown; baseUrl?: unknown };

export type EmailMessage = { to: string[]; subject: string; text: string };

type UsableSettings = { apiKey: string; fromEmail: string; fromName?: unknown; baseUrl?: unknown };

/** The settings, if they can send (a key and a sender); else SENDGRID_NOT_CONFIGURED. */
export function usableSettings(settings: EmailSettings): UsableSettings {
  if (
    typeof settings.apiKey !== 'string' ||
    !settings.apiKey ||
    typeof settings.fromEmail !== 'string' ||
    !settings.fromEmail
  ) {
    throw new Error(SENDGRID_NOT_CONFIGURED);
  }
  return { ...settings, apiKey: settings.apiKey, fromEmail: settings.fromEmail };
}

/**
 * Sends one plain-text email through the SendGrid v3 API (via the egress module). Used by the
 * `communication` tool and by workflow output delivery. Throws SENDGRID_NOT_CONFIGURED without an API
 * key and sender, and a message with SendGrid's status when it refuses the email.
 */
export async function sendEmail(
  settings: EmailSettings,
  message: EmailMessage,
  egress: Egress,
  options?: { signal?: AbortSignal },
): Promise<{ sent: true; recipients: number }> {
  const sendgrid = usableSettings(settings);
  const recipients = message.to.map((email) => ({ email }));
  const base =
    typeof sendgrid.baseUrl === 'string' && sendgrid.baseUrl ? sendgrid.baseUrl : DEFAULT_SENDGRID_URL;
  const response = await egress.fetch(`${base.replace(/\/+$/, '')}/v3/mail/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sendgrid.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      personalizations: [{ to: recipients }],
      from: {
        email: sendgrid.fromEmail,
        ...(typeof sendgrid.fromName === 'string' && sendgrid.fromName ? { name: sendgrid.fromName } : {}),
      },
      subject: message.subject,
      content: [{ type: 'text/plain', value: message.text }],
    }),
    signal: options?.signal,
  });
  if (response.status >= 300) {
    throw new Error(
      `SendGrid refused the email (${response.status}): ${(await response.text()).slice(0, 500)}`,
    );
  }
  return { sent: true, recipients: recipients.length };
}
