import { z } from 'zod';
import type { Egress } from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';

const DEFAULT_SENDGRID_URL = 'https://api.sendgrid.com';

const emailArgs = z.object({
  to: z.union([z.email(), z.array(z.email()).min(1).max(20)]),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(50_000),
});

export type EmailSettings = { apiKey?: unknown; fromEmail?: unknown; fromName?: unknown; baseUrl?: unknown };

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
      if (
        typeof settings.apiKey !== 'string' ||
        !settings.apiKey ||
        typeof settings.fromEmail !== 'string' ||
        !settings.fromEmail
      ) {
        throw new Error(
          'No SendGrid connection is configured. Add its API key and sender address in Settings → Tools.',
        );
      }
      const args = emailArgs.parse(raw);
      const recipients = (Array.isArray(args.to) ? args.to : [args.to]).map((email) => ({ email }));
      const base =
        typeof settings.baseUrl === 'string' && settings.baseUrl ? settings.baseUrl : DEFAULT_SENDGRID_URL;
      const response = await egress.fetch(`${base.replace(/\/+$/, '')}/v3/mail/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          personalizations: [{ to: recipients }],
          from: {
            email: settings.fromEmail,
            ...(typeof settings.fromName === 'string' && settings.fromName
              ? { name: settings.fromName }
              : {}),
          },
          subject: args.subject,
          content: [{ type: 'text/plain', value: args.text }],
        }),
        signal: options?.signal,
      });
      if (response.status >= 300) {
        throw new Error(
          `SendGrid refused the email (${response.status}): ${(await response.text()).slice(0, 500)}`,
        );
      }
      return { sent: true, recipients: recipients.length };
    },
  };
}
