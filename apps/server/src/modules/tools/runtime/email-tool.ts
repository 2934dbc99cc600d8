import { z } from 'zod';
import type { Egress } from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';
import { sendEmail, usableSettings, type EmailSettings } from '../../../platform/mail/sendgrid';

const emailArgs = z.object({
  to: z.union([z.email(), z.array(z.email()).min(1).max(20)]),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(50_000),
});

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
