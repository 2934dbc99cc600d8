import type { EgressByUse } from '../../platform/egress';
import { maskUrl } from '../../platform/crypto';

/** How long the notification URL may take to answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** What the notification says of its approval. */
export type NoticeOf = {
  title: string;
  message: string;
  workflowName: string | null;
  expiresAt: Date | null;
};

/**
 * Slack reads `&`, `<` and `>` as markup (`<url|label>` makes a link): a run's values in the text are
 * escaped as Slack's documentation says, so an email's subject cannot dress up a link. Teams shows
 * the entities as the characters.
 */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The JSON posted to the organization's notification URL when an approval waits, or is still waiting
 * halfway to its timeout: `{ text }`, the one body both Slack and Microsoft Teams incoming webhooks
 * take. It links to the Inbox rather than carrying Approve and Reject links: a channel is shared, and
 * a decision must be someone's (docs/security.md, Approval links).
 */
export function approvalNotice(approval: NoticeOf, kind: 'request' | 'reminder', inboxUrl: string) {
  const lines = [
    `${kind === 'reminder' ? 'Reminder: approval still needed' : 'Approval needed'}: ${escaped(approval.title)}`,
    ...(approval.message.trim() && approval.message.trim() !== approval.title
      ? [escaped(approval.message.trim())]
      : []),
    `Workflow: ${escaped(approval.workflowName ?? 'a deleted workflow')}`,
    ...(approval.expiresAt ? [`Times out: ${approval.expiresAt.toUTCString()}`] : []),
    `Decide in Crewline: ${inboxUrl}`,
  ];
  return { text: lines.join('\n') };
}

/**
 * Posts the notice through the egress module (as webhooks go: the allow-list's `webhook` entries).
 * Fails with a message naming only the URL's origin (its path holds the webhook's secret).
 */
export async function postApprovalNotice(
  egress: EgressByUse,
  url: string,
  body: { text: string },
): Promise<void> {
  const shown = maskUrl(url);
  let status: number;
  try {
    const response = await egress.for('webhook').fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Crewline-Webhook/1.0' },
      body: JSON.stringify(body),
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
    });
    status = response.status;
  } catch (error) {
    throw new Error(`The approval notification to ${shown} could not be sent: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (status < 200 || status >= 300)
    throw new Error(
      `The approval notification to ${shown} could not be sent: it answered with HTTP status ${status}`,
    );
}
