import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { waitForRunStatus } from '../../testing/app-fixtures';
import { PUBLIC_URL, useApprovalMailSuite } from '../../testing/approval-mail-suite';
import { startFakeChatWebhook, type FakeChatWebhook } from '../../testing/fake-chat-webhook';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeSendgrid } from '../../testing/fake-sendgrid-server';
import type { FakeSmtpServer } from '../../testing/fake-smtp-server';
import type { TestApp } from '../../testing/test-app';

/*
 * Where approvers hear of approvals besides the Inbox: the organization's notification URL (a Slack
 * or Teams incoming webhook, through the fakes that check what those check) gets a message when an
 * approval waits; halfway to its timeout, those who have not decided are reminded by email and at
 * the URL, once. Emails go through the organization's SendGrid connection when it has one.
 */

const { suite, waitingRun } = useApprovalMailSuite();
let t: TestApp;
let smtp: FakeSmtpServer;
let fake: FakeLlmServer;
let chat: FakeChatWebhook;
let ada: AuthResponse;
let bob: AuthResponse;
let cyd: AuthResponse;
beforeAll(async () => {
  ({ t, smtp, fake, ada, bob, cyd } = suite);
  chat = await startFakeChatWebhook();
});
afterAll(() => chat?.close());

const setUrl = async (url: string | null) => {
  const res = await t.request({
    method: 'PUT',
    url: '/api/organization/settings',
    token: ada.token,
    payload: { approvalNotificationUrl: url },
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** The chat messages whose text includes `part`, once there are `count` of them (waits up to 10 s). */
async function chatMessages(part: string, count = 1) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    const found = chat.received.filter((m) => m.text.includes(part));
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no chat message with "${part}": ${JSON.stringify(chat.received)}`);
}

const decide = (who: AuthResponse, approvalId: string, decision: 'approve' | 'reject') =>
  t.request({
    method: 'POST',
    url: `/api/approvals/${approvalId}/decision`,
    token: who.token,
    payload: { decision },
  });

describe('the notification URL', () => {
  it('gets a message Slack takes when an approval waits, the run’s values escaped, linking to the Inbox', async () => {
    await setUrl(chat.slackUrl);
    await waitingRun('Refunds to Slack', {}, { customer: '<https://evil.example|Acme> & co' });
    const [message] = await chatMessages('Refunds to Slack');
    expect(message).toEqual({
      service: 'slack',
      text: [
        'Approval needed: Refund 120 € to &lt;https://evil.example|Acme&gt; &amp; co?',
        'The customer was charged twice for order A-17.',
        'Workflow: Refunds to Slack',
        `Decide in Crewline: ${PUBLIC_URL}/inbox`,
      ].join('\n'),
    });
  });

  it('takes a refused post for a warning in the run’s log that names only the URL’s origin', async () => {
    await setUrl(`${chat.base}/services/T0001/B0002/revokedSecret/extra`);
    const { id } = await waitingRun('Refunds, hook revoked', {}, { amount: 5, customer: 'Bo' });
    let run: Execution | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      run = (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();
      if (run!.logs.some((l) => l.message.startsWith('The approval notification'))) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(run!.status).toBe('waiting');
    expect(run!.logs.at(-1)).toEqual({
      at: expect.any(String),
      level: 'warn',
      nodeId: 'approve',
      message: `The approval notification to ${chat.base}/… could not be sent: it answered with HTTP status 404`,
    });
    expect(JSON.stringify(run)).not.toContain('revokedSecret');
  });
});

describe('reminders', () => {
  it('go halfway to the timeout, once, to those who have not decided, by email and to Teams', async () => {
    await setUrl(chat.teamsUrl);
    const {
      id,
      approval: { id: approvalId },
    } = await waitingRun(
      'Refunds, reminded',
      {
        assignees: { userIds: [bob.user.id, cyd.user.id] },
        policy: 'all',
        timeout: { seconds: 600, onTimeout: 'reject' },
      },
      { amount: 700, customer: 'Dee' },
    );
    await chatMessages('Approval needed: Refund 700 € to Dee?');
    expect((await decide(bob, approvalId, 'approve')).statusCode).toBe(200);

    // Before halfway, nothing; from halfway, one reminder, however often the loop looks.
    const reminders = () =>
      smtp.inbox.filter((m) => m.subject.startsWith('Reminder') && m.subject.includes('Dee'));
    suite.offsetMs = 290_000;
    await t.wakeUps!.wakeNow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reminders()).toEqual([]);
    suite.offsetMs = 310_000;
    await t.wakeUps!.wakeNow();
    await t.wakeUps!.wakeNow();
    const reminder = await smtp.waitFor(cyd.user.email, (m) => m.subject.startsWith('Reminder'));
    expect(reminder.subject).toBe('Reminder: approval still needed: Refund 700 € to Dee?');
    expect(reminder.text).toContain('Approve: https://crew.example.com/approvals/email/');
    const [posted] = await chatMessages('Reminder: approval still needed: Refund 700 € to Dee?');
    expect(posted.service).toBe('teams');
    expect(posted.text).toContain('Times out: ');

    // Bob decided already: his only email is the first one. And nothing came twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const subjects = (to: string) =>
      smtp.inbox.filter((m) => m.envelopeTo.includes(to)).map((m) => m.subject);
    expect(subjects(bob.user.email).filter((s) => s.includes('Dee'))).toEqual([
      'Approval needed: Refund 700 € to Dee?',
    ]);
    expect(subjects(cyd.user.email).filter((s) => s.includes('Dee'))).toEqual([
      'Approval needed: Refund 700 € to Dee?',
      'Reminder: approval still needed: Refund 700 € to Dee?',
    ]);
    expect(chat.received.filter((m) => m.text.includes('Dee'))).toHaveLength(2);

    // The reminded approver's decision still completes the run.
    expect((await decide(cyd, approvalId, 'approve')).statusCode).toBe(200);
    fake.script([{ content: 'Refund sent.' }]);
    await waitForRunStatus(t, ada.token, id, 'completed');
  });

  it('never go for an approval decided before halfway', async () => {
    await setUrl(null);
    const {
      approval: { id: approvalId },
    } = await waitingRun(
      'Refunds, decided early',
      { timeout: { seconds: 600, onTimeout: 'reject' } },
      { amount: 1, customer: 'Eve' },
    );
    expect((await decide(bob, approvalId, 'reject')).statusCode).toBe(200);
    suite.offsetMs = 400_000;
    await t.wakeUps!.wakeNow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.inbox.filter((m) => m.subject.startsWith('Reminder') && m.subject.includes('Eve'))).toEqual(
      [],
    );
  });
});

describe('approval emails', () => {
  it('go through the organization’s SendGrid connection when it has one, instead of the server’s transport', async () => {
    await setUrl(null);
    const sendgrid = await startFakeSendgrid('SG.approvals-key');
    const configure = (isActive: boolean) =>
      t.request({
        method: 'PUT',
        url: '/api/tools/configurations/sendgrid_config',
        token: ada.token,
        payload: {
          config: { apiKey: 'SG.approvals-key', fromEmail: 'approvals@acme.test', baseUrl: sendgrid.url },
          isActive,
        },
      });
    try {
      expect((await configure(true)).statusCode).toBe(200);
      await waitingRun(
        'Refunds by SendGrid',
        { assignees: { userIds: [cyd.user.id] } },
        { amount: 9, customer: 'Flo' },
      );
      for (const deadline = Date.now() + 10_000; sendgrid.sent.length === 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(sendgrid.sent).toEqual([
        {
          to: [cyd.user.email],
          from: 'approvals@acme.test',
          subject: 'Approval needed: Refund 9 € to Flo?',
          text: expect.stringContaining('Approve: https://crew.example.com/approvals/email/'),
        },
      ]);
      expect(smtp.inbox.filter((m) => m.subject.includes('Flo'))).toEqual([]);
    } finally {
      await configure(false);
      await sendgrid.close();
    }
  });
});
