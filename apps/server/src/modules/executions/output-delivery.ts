import path from 'node:path';
import { z } from 'zod';
import { maskUrl } from '../../platform/crypto';
import type { EgressByUse } from '../../platform/egress';
import type { Config } from '../../platform/env';
import { writeFileInFolder } from '../../platform/files/confined-folder';
import { sendEmail } from '../../platform/mail/sendgrid';

/**
 * Where an agent node's output goes after its step (the node's output destination): `database`
 * (the run stores every output anyway) and `nextNode` (passed to successors by the run) need nothing
 * here; `file`, `webhook` and `email` are delivered with the same safety as the tools: files stay in
 * the organization's folder, HTTP goes through the egress module, email through the organization's
 * SendGrid configuration.
 */

export type DeliveryTarget = {
  organizationId: string;
  executionId: string;
  workflowId: string;
  workflowName: string;
  nodeId: string;
  agentName: string;
  /** The node's data (outputDestination, outputFormat, filePath, webhookUrl, emailRecipients…). */
  data: Record<string, unknown>;
  /**
   * The run that first produced this output, when it differs (a retry resending a reused step's
   * output): its id keeps the webhook's idempotency key, so a receiver that got it already drops it.
   */
  producedBy?: string;
};

/** Whether a node sends its output somewhere (file, webhook, email) besides the run's own record. */
export function sendsOutput(data: Record<string, unknown>): boolean {
  const to = destination(data);
  return to !== 'database' && to !== 'nextNode';
}

export type OutputDeliveryDeps = {
  config: Config;
  /** Webhooks go out as `webhook`, emails through SendGrid as `tool` (the email tool's use). */
  egress: EgressByUse;
  /** The organization's active SendGrid configuration (decrypted), if any. */
  sendgridSettings(organizationId: string): Promise<Record<string, unknown> | undefined>;
};

/** A delivery that failed or could not be attempted; the message names the agent and the destination. */
export class OutputDeliveryError extends Error {
  override readonly name = 'OutputDeliveryError';
}

const OUTPUT_DESTINATIONS = ['database', 'file', 'webhook', 'email', 'nextNode'] as const;
const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'csv', 'html'] as const;
type OutputDestination = (typeof OUTPUT_DESTINATIONS)[number];
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Largest file written by a delivery. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_FILE_PATH_CHARS = 1024;
const MAX_RECIPIENTS = 50;
const MAX_SUBJECT_CHARS = 300;
const WEBHOOK_TIMEOUT_MS = 30_000;

const emailAddress = z.email();

export function createOutputDelivery(deps: OutputDeliveryDeps) {
  return {
    /**
     * Sends one step's output where its node says. Returns a short log line ("Wrote reports/x.md",
     * "POSTed to https://…", "Emailed a@b.c"), or undefined for database/nextNode. Throws an
     * OutputDeliveryError naming the agent and the destination when delivery fails or the node's
     * settings are missing or invalid; a cancellation through `signal` is rethrown as is.
     */
    async deliver(
      target: DeliveryTarget,
      content: string,
      options: { signal?: AbortSignal } = {},
    ): Promise<string | undefined> {
      const who = `Agent "${target.agentName || target.nodeId}"`;
      switch (destination(target.data)) {
        case 'database':
        case 'nextNode':
          return undefined;
        case 'file':
          return toFile(deps, target, content, who, options.signal);
        case 'webhook':
          return toWebhook(deps, target, content, who, options.signal);
        case 'email':
          return toEmail(deps, target, content, who, options.signal);
      }
    },
  };
}
export type OutputDelivery = ReturnType<typeof createOutputDelivery>;

async function toFile(
  deps: OutputDeliveryDeps,
  target: DeliveryTarget,
  content: string,
  who: string,
  signal?: AbortSignal,
) {
  const filePath = text(target.data.filePath).trim();
  if (!filePath) {
    throw new OutputDeliveryError(`${who} is set to write its output to a file, but no file path is set`);
  }
  if (filePath.length > MAX_FILE_PATH_CHARS) {
    throw new OutputDeliveryError(`${who} could not write its output to a file: the file path is too long`);
  }
  signal?.throwIfAborted();
  const rootDir = path.join(deps.config.dataDir, 'files', target.organizationId);
  try {
    const written = await writeFileInFolder(rootDir, filePath, formatted(content, format(target.data)), {
      maxBytes: MAX_FILE_BYTES,
    });
    return `Wrote ${written.path}`;
  } catch (error) {
    // writeFileInFolder's messages are readable and never show absolute server paths.
    throw failure(`${who} could not write its output to the file ${filePath}`, error);
  }
}

async function toWebhook(
  deps: OutputDeliveryDeps,
  target: DeliveryTarget,
  content: string,
  who: string,
  signal?: AbortSignal,
) {
  const raw = text(target.data.webhookUrl).trim();
  if (!raw) {
    throw new OutputDeliveryError(`${who} is set to send its output to a webhook, but no webhook URL is set`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutputDeliveryError(
      `${who} could not send its output to the webhook: "${clip(raw)}" is not a valid URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutputDeliveryError(
      `${who} could not send its output to the webhook: the URL must start with http:// or https://`,
    );
  }
  // Webhook URLs often carry their secret in the path or query (Slack, Zapier…): only the origin is shown.
  const shown = maskUrl(url.href);
  const body = JSON.stringify({
    executionId: target.executionId,
    workflowId: target.workflowId,
    workflowName: target.workflowName,
    nodeId: target.nodeId,
    agentName: target.agentName,
    format: format(target.data),
    content,
  });
  let status: number;
  try {
    const response = await deps.egress.for('webhook').fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Crewline-Webhook/1.0',
        // An output sent again (after a worker crash, or by a retry) carries the same key, so receivers can drop it.
        'idempotency-key': `${target.producedBy ?? target.executionId}:${target.nodeId}`,
      },
      body,
      signal,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      // The answer is not used; a small limit keeps a chatty endpoint from costing memory.
      maxResponseBytes: 64 * 1024,
    });
    status = response.status;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw failure(`${who} could not send its output to the webhook ${shown}`, error);
  }
  if (status < 200 || status >= 300) {
    throw new OutputDeliveryError(
      `${who} could not send its output to the webhook ${shown}: it answered with HTTP status ${status}`,
    );
  }
  return `POSTed to ${shown}`;
}

async function toEmail(
  deps: OutputDeliveryDeps,
  target: DeliveryTarget,
  content: string,
  who: string,
  signal?: AbortSignal,
) {
  const recipients = parseRecipients(target.data.emailRecipients, who);
  signal?.throwIfAborted();
  const settings = await deps.sendgridSettings(target.organizationId);
  const subject = `Crewline: ${target.workflowName} — ${target.agentName}`
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_SUBJECT_CHARS);
  const body = formatted(content, format(target.data));
  try {
    await sendEmail(
      settings ?? {},
      // SendGrid refuses an empty body.
      { to: recipients, subject, text: body.trim() ? body : '(The agent returned no output.)' },
      deps.egress.for('tool'),
      { signal },
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    throw failure(`${who} could not email its output to ${recipients.join(', ')}`, error);
  }
  return `Emailed ${recipients.join(', ')}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Unknown or missing values fall back like the builder does (workflow-logic.ts normalizeNodeData). */
function destination(data: Record<string, unknown>): OutputDestination {
  const value = data.outputDestination;
  return (OUTPUT_DESTINATIONS as readonly unknown[]).includes(value)
    ? (value as OutputDestination)
    : 'database';
}

function format(data: Record<string, unknown>): OutputFormat {
  const value = data.outputFormat;
  return (OUTPUT_FORMATS as readonly unknown[]).includes(value) ? (value as OutputFormat) : 'text';
}

/**
 * The content as it is written to a file or an email: as is, except that JSON output that parses
 * (also inside a single ```json fence, as models like to answer) is pretty-printed.
 */
function formatted(content: string, outputFormat: OutputFormat): string {
  if (outputFormat !== 'json') return content;
  const fenced = /^\s*```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n```\s*$/i.exec(content);
  for (const candidate of fenced ? [content, fenced[1]] : [content]) {
    try {
      return `${JSON.stringify(JSON.parse(candidate), null, 2)}\n`;
    } catch {
      // Not JSON: try the next form, or write the content as is.
    }
  }
  return content;
}

function parseRecipients(value: unknown, who: string): string[] {
  const parts = text(value)
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) {
    throw new OutputDeliveryError(`${who} is set to email its output, but no recipients are set`);
  }
  const invalid = parts.filter((part) => !emailAddress.safeParse(part).success);
  if (invalid.length > 0) {
    throw new OutputDeliveryError(
      `${who} could not email its output: ${invalid.map((part) => `"${clip(part)}"`).join(', ')} ${
        invalid.length === 1 ? 'is not a valid email address' : 'are not valid email addresses'
      }`,
    );
  }
  const unique = [...new Map(parts.map((part) => [part.toLowerCase(), part])).values()];
  if (unique.length > MAX_RECIPIENTS) {
    throw new OutputDeliveryError(
      `${who} could not email its output: at most ${MAX_RECIPIENTS} recipients are allowed`,
    );
  }
  return unique;
}

function failure(prefix: string, error: unknown): OutputDeliveryError {
  const reason = error instanceof Error && error.message ? error.message : 'unknown error';
  return new OutputDeliveryError(`${prefix}: ${reason}`, { cause: error });
}

function clip(value: string, max = 100): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
