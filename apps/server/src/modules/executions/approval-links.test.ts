import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { approvalLinks } from '@crewline/db';
import { createEgress } from '../../platform/egress';
import { waitForRunEnd } from '../../testing/app-fixtures';
import { PUBLIC_URL, useApprovalMailSuite } from '../../testing/approval-mail-suite';
import { linkIn, type FakeSmtpServer, type ReceivedMail } from '../../testing/fake-smtp-server';
import type { TestApp } from '../../testing/test-app';
import { createApprovalLinksRepository } from './approval-links.repository';
import { createApprovalLinksService } from './approval-links.service';

/*
 * Approvals decided by email, through the mail transport's test server and a real worker: each
 * approver gets their own Approve and Reject links; a link decides once, as its approver, and then
 * says it was used; an expired or unknown link decides nothing.
 */

const { suite, waitingRun } = useApprovalMailSuite();
let t: TestApp;
let smtp: FakeSmtpServer;
let ada: AuthResponse;
let bob: AuthResponse;
let cyd: AuthResponse;
beforeAll(() => ({ t, smtp, ada, bob, cyd } = suite));
const publicUrl = PUBLIC_URL;
const linkPrefix = `${publicUrl}/approvals/email/`;

/** The approval email to `who` about `title` in `workflow`, with the tokens of its two links. */
async function mailTo(who: AuthResponse, title: string, workflow: string) {
  const mail = await smtp.waitFor(
    who.user.email,
    (m) => m.subject === `Approval needed: ${title}` && m.text.includes(`Workflow: ${workflow}\n`),
  );
  const tokenOf = (label: string) => {
    const line = mail.text.split('\n').find((l) => l.startsWith(`${label}: `));
    expect(line, mail.text).toBeDefined();
    return linkIn({ ...mail, text: line! } as ReceivedMail, linkPrefix).slice(linkPrefix.length);
  };
  return { mail, approve: tokenOf('Approve'), reject: tokenOf('Reject') };
}

const open = (token: string) => t.request({ method: 'GET', url: `/api/approval-links/${token}` });
const confirm = (token: string, payload: Record<string, unknown> = {}) =>
  t.request({ method: 'POST', url: `/api/approval-links/${token}`, payload });

describe('approval emails', () => {
  it('mail each approver their own links; one decides once, as its approver, then says it was used', async () => {
    const { id, approval } = await waitingRun('Refunds by email', {
      assignees: { userIds: [cyd.user.id], roles: ['admin'] },
      fields: [{ name: 'note', label: 'Note', type: 'text', required: true }],
      timeout: { seconds: 3600, onTimeout: 'reject' },
    });
    const title = 'Refund 120 € to Acme?';
    const forCyd = await mailTo(cyd, title, 'Refunds by email');
    const forBob = await mailTo(bob, title, 'Refunds by email');
    expect(forCyd.mail.text).toContain('The customer was charged twice for order A-17.');
    expect(forCyd.mail.text).toContain('Workflow: Refunds by email');
    expect(forCyd.mail.text).toContain(
      `The approval times out on ${new Date(approval.expiresAt!).toUTCString()}.`,
    );
    // Four different links; the owner is no approver here and gets none.
    expect(new Set([forCyd.approve, forCyd.reject, forBob.approve, forBob.reject]).size).toBe(4);
    expect(
      smtp.inbox.filter((m) => m.envelopeTo.includes(ada.user.email) && m.subject.includes(title)),
    ).toEqual([]);
    // Only hashes are stored.
    const stored = await t.db.select().from(approvalLinks).where(eq(approvalLinks.approvalId, approval.id));
    expect(stored).toHaveLength(4);
    expect(stored.map((s) => s.tokenHash)).not.toContain(forCyd.approve);

    // Opening the link shows what it decides, and decides nothing.
    const opened = await open(forCyd.approve);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({
      approval: {
        title,
        message: 'The customer was charged twice for order A-17.',
        workflowName: 'Refunds by email',
        status: 'pending',
        fields: [{ name: 'note', required: true }],
        expiresAt: approval.expiresAt,
      },
      decision: 'approve',
    });
    expect(opened.json().approver.name).toBeTruthy();
    expect((await open(forBob.reject)).json().decision).toBe('reject');

    // The approval's rules apply: a missing required field is refused, and the link still works.
    const missing = await confirm(forCyd.approve, { comment: 'Fine' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Note is required');
    expect((await open(forCyd.approve)).statusCode).toBe(200);

    const decided = await confirm(forCyd.approve, { comment: 'Fine', fields: { note: 'Sorry!' } });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toEqual({ status: 'approved' });
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status).toBe('completed');
    expect(done.output.approve).toMatchObject({
      data: {
        decision: 'approved',
        fields: { note: 'Sorry!' },
        decisions: [{ userId: cyd.user.id, decision: 'approve', comment: 'Fine', via: 'email' }],
      },
    });
    expect(done.output.send).toMatchObject({ status: 'completed' });

    for (const again of [await open(forCyd.approve), await confirm(forCyd.approve)]) {
      expect(again.statusCode).toBe(410);
      expect(again.json().message).toBe('This link was already used');
    }
    // Another approver's link now meets a decided approval.
    const late = await confirm(forBob.reject);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This approval was already decided');
  });

  it('refuses an expired link with 410 and an unknown one with 404', async () => {
    const { approval } = await waitingRun('Refunds without timeout', {
      assignees: { userIds: [bob.user.id] },
    });
    const { approve, reject } = await mailTo(bob, 'Refund 120 € to Acme?', 'Refunds without timeout');
    // Without a timeout, the links work for 7 days.
    suite.offsetMs = 7 * 86_400_000 + 60_000;
    for (const expired of [await open(approve), await confirm(reject)]) {
      expect(expired.statusCode).toBe(410);
      expect(expired.json().message).toBe('This link has expired');
    }
    suite.offsetMs = 0;
    const still = await t.request({ method: 'GET', url: `/api/approvals/${approval.id}`, token: ada.token });
    expect(still.json().status).toBe('pending');

    // A token of the right shape that no email carried, a tampered one, and garbage.
    const unknown = [
      approve.slice(0, -2) + (approve.endsWith('AA') ? 'BB' : 'AA'),
      'x'.repeat(43),
      'garbage',
    ];
    for (const token of unknown) {
      expect((await open(token)).statusCode).toBe(404);
      const posted = await confirm(token);
      expect(posted.statusCode).toBe(404);
      expect(posted.json().message).toBe('This link does not exist');
    }
    // The real link still works.
    expect((await confirm(reject, { comment: 'No' })).json()).toEqual({ status: 'rejected' });
  });

  it('takes a failed send for a warning in the run’s log; the run goes on waiting', async () => {
    const { id, approval } = await waitingRun('Refunds, mail down', {
      assignees: { userIds: [cyd.user.id] },
    });
    const links = createApprovalLinksService({
      repository: createApprovalLinksRepository(t.db),
      approvals: { decide: () => Promise.reject(new Error('not used')) },
      members: (organizationId) => t.services.team.members(organizationId),
      mailer: {
        configured: true,
        send: () => Promise.reject(new Error('Invalid login: 535 Authentication failed')),
      },
      sendgridSettings: async () => undefined,
      notificationUrl: async () => null,
      egress: createEgress({ allowList: [] }),
      publicUrl,
    });
    await links.notify(approval.id);
    const run: Execution = (
      await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })
    ).json();
    expect(run.status).toBe('waiting');
    expect(run.logs.at(-1)).toMatchObject({
      level: 'warn',
      nodeId: 'approve',
      message: expect.stringMatching(/^The approval email to .+ could not be sent: Invalid login: 535/),
    });
  });
});
