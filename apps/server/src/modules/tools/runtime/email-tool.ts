import { z } from 'zod';
import type { Egress } from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';

const DEFAULT_SENDGRID_URL = 'https://api.sendgrid.com';

/** Shown when an organization has no usable SendGrid configuration. */
export const SENDGRID_NOT_CONFIGURED =
  'No SendGrid connection is configured. Add its API key and sender address in Settings → Tools.';

const emailArgs = z.object({
  to: z.union([z.email(), z.array(z.email()).min(1).max(20)]),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(50_000),
});

export type EmailSettings = { apiKey?: unknown; fromEmail?: unknown; fromName?: unknown; baseUrl?: unknown };

export type EmailMessage = { to: string[]; subject: string; text: string };

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/**
 * The SendGrid settings a `communication` tool sends with (docs/security.md, Credentials). A tool with
 * its own key uses its own address (SendGrid's when it names none), and its own sender or else the
 * organization's. Any other tool uses the organization's connection exactly as an admin set it: the
 * organization's key never goes to an address a tool names, and the tool cannot change its sender.
 */
export function emailConnection(tool: EmailSettings, organization: EmailSettings | undefined): EmailSettings {
  const org = organization ?? {};
  if (text(tool.apiKey)) {
    return {
      apiKey: tool.apiKey,
      baseUrl: text(tool.baseUrl),
      fromEmail: text(tool.fromEmail) ?? org.fromEmail,
      fromName: text(tool.fromEmail) ? tool.fromName : org.fromName,
    };
  }
  return { apiKey: org.apiKey, baseUrl: org.baseUrl, fromEmail: org.fromEmail, fromName: org.fromName };
}

type UsableSettings = { apiKey: string; fromEmail: string; fromName?: unknown; baseUrl?: unknown };

function usableSettings(settings: EmailSettings): UsableSettings {
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

/** `communication` tools: send a plain-text email through the SendGrid v3 API. */
export function createEmailTool(settings: EmailSettings, egress: Egress): LlmTool {
  return {
    description: 'Sends a plain-text email. Give the recipient address(es), a subject and the text.',
    inputSchema: {
      type: 'object',
      properties: {
        to: {
          description: 'Recipient email address, or a list of them',
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        },
        subject: { type: 'string' },
        text: { type: 'string', description: 'The body of the email' },
      },
      required: ['to', 'subject', 'text'],
    },
    async execute(raw, options) {
      // The missing configuration is reported before the arguments are checked.
      usableSettings(settings);
      const args = emailArgs.parse(raw);
      const to = Array.isArray(args.to) ? args.to : [args.to];
      return sendEmail(settings, { to, subject: args.subject, text: args.text }, egress, options);
    },
  };
}
