// Issue 36, People in the loop: each approver gets an email with Approve and Reject links (through
// the server's mail transport, here its test server). A link opens a confirmation page signed out
// (the link binds its approver); confirming decides once and the run goes on; the link then says it
// was used.
import type { APIRequestContext } from '@playwright/test';
import { expect, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';
import { mailsTo } from './mail-inbox';

const TITLE = 'Refund 120 € to Acme?';
const MESSAGE = 'The customer was charged twice.';

type Headers = Record<string, string>;
type Run = { status: string; output: Record<string, { status: string; data?: Record<string, unknown> }> };

/** start → approve → approved: send → end, active; answers its id and name. */
async function createWorkflow(request: APIRequestContext, headers: Headers) {
  const agent = await request.post('/api/agents', {
    headers,
    data: {
      name: 'Refund desk',
      role: 'Refunds',
      goal: 'Send refunds',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  });
  expect(agent.status()).toBe(201);
  const agentId = (await agent.json()).id as string;
  const name = uniqueName('Refunds by email ');
  const res = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
        {
          id: 'approve',
          type: 'approval',
          position: { x: 240, y: 100 },
          data: {
            label: 'Approve refund',
            title: 'Refund {{ input.amount }} € to {{ input.customer }}?',
            message: MESSAGE,
            fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }],
            timeout: { seconds: 86_400, onTimeout: 'reject' },
          },
        },
        {
          id: 'send',
          type: 'agent',
          agentId,
          position: { x: 520, y: 100 },
          data: { agentId, label: 'Send refund', name: 'Send refund' },
        },
        { id: 'end', type: 'end', position: { x: 800, y: 100 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'approve' },
        { id: 'e2', source: 'approve', target: 'send', sourceHandle: 'approved' },
        { id: 'e3', source: 'send', target: 'end' },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).id as string, name };
}

async function readRun(request: APIRequestContext, headers: Headers, id: string): Promise<Run> {
  const res = await request.get(`/api/executions/${id}`, { headers });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The path of the link labelled `label` ('Approve', 'Reject') in the approval email about `workflow`. */
async function mailedLinkPath(request: APIRequestContext, to: string, workflow: string, label: string) {
  let text = '';
  await expect
    .poll(
      async () => {
        const mail = (await mailsTo(request, to)).find(
          (m) => m.subject === `Approval needed: ${TITLE}` && m.text.includes(`Workflow: ${workflow}`),
        );
        text = mail?.text ?? '';
        return text;
      },
      { message: `an approval email to ${to}`, timeout: 30_000 },
    )
    .toContain(`${label}: `);
  const line = text.split('\n').find((l) => l.startsWith(`${label}: `))!;
  return new URL(line.slice(label.length + 2).trim()).pathname;
}

test('an approval email’s Approve link opens signed out, decides once, and the run goes on', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const workflow = await createWorkflow(request, headers);
  fake.script([{ content: 'Refund sent to Acme.' }]);
  const started = await request.post(`/api/workflows/${workflow.id}/execute`, {
    headers,
    data: { input: { amount: 120, customer: 'Acme' } },
  });
  expect(started.status()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  await expect
    .poll(async () => (await readRun(request, headers, id)).status, { timeout: 30_000 })
    .toBe('waiting');

  const approvePath = await mailedLinkPath(request, account.email, workflow.name, 'Approve');
  const rejectPath = await mailedLinkPath(request, account.email, workflow.name, 'Reject');
  expect(approvePath).toMatch(/^\/approvals\/email\/[A-Za-z0-9_-]{43}$/);

  // This browser was never signed in: the link is enough.
  await page.goto(approvePath);
  const card = page.getByTestId('approval-link');
  await expect(card.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(card.getByTestId('approval-link-message')).toHaveText(MESSAGE);
  await expect(card.getByTestId('approval-link-workflow')).toHaveText(workflow.name);
  await expect(card.getByTestId('approval-link-decision')).toContainText('You are about to approve');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  // Opening it decided nothing.
  expect((await readRun(request, headers, id)).status).toBe('waiting');
  await snapScreens(page, card, 'approval-email-confirm', { fullPage: true });

  // The form is checked before anything is sent.
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByText('Amount is required')).toBeVisible();
  await card.getByLabel(/^Amount\s*\*$/).fill('120');
  await card.getByLabel('Comment').fill('Checked the duplicate charge.');
  await card.getByRole('button', { name: 'Approve' }).click();
  const done = page.getByTestId('approval-link-notice');
  await expect(done.getByRole('status')).toHaveText('Done: the run goes on');
  await snapScreens(page, done, 'approval-email-done');

  await expect
    .poll(async () => (await readRun(request, headers, id)).status, { timeout: 30_000 })
    .toBe('completed');
  const run = await readRun(request, headers, id);
  expect(run.output.send.status).toBe('completed');
  expect(run.output.approve.data).toMatchObject({
    decision: 'approved',
    fields: { amount: 120 },
    decisions: [{ decision: 'approve', comment: 'Checked the duplicate charge.', via: 'email' }],
  });

  // The same link again: used.
  await page.goto(approvePath);
  await expect(page.getByRole('alert')).toHaveText('This link was already used');
  await snapScreens(page, page.getByTestId('approval-link-notice'), 'approval-email-used');

  // The other link meets a decided approval: nothing to confirm.
  await page.goto(rejectPath);
  await expect(page.getByTestId('approval-link').getByRole('alert')).toHaveText(
    'This approval was already decided: approved.',
  );
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);
});
