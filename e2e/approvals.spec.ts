// Issue 36, People in the loop: a run that reaches an Approval step waits; the Inbox shows it, with its
// count beside the navigation's Inbox, and a decision there (or in the run's details) sends the run
// down the path it names. A waiting run says what it waits for and can be cancelled.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectToast, screenshotDir, signInAs, snap, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

const TITLE = 'Refund 120 € to Acme?';
const MESSAGE = 'The customer asked twice.';

type Headers = Record<string, string>;
type Step = { status: string; kind?: string; data?: Record<string, unknown> };
type Run = { status: string; error: string | null; output: Record<string, Step> };

async function createAgent(request: APIRequestContext, headers: Headers, name: string) {
  const res = await request.post('/api/agents', {
    headers,
    data: { name, role: name, goal: 'Handle refunds', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).id as string;
}

const agentNode = (id: string, agentId: string, label: string, x: number, y: number) => ({
  id,
  type: 'agent',
  agentId,
  position: { x, y },
  data: { agentId, label, name: label },
});

/** start → draft → approve → approved: send | rejected: sorry → end, active; answers its id and name. */
async function createRefundWorkflow(request: APIRequestContext, headers: Headers) {
  const agentId = await createAgent(request, headers, 'Refund desk');
  const name = uniqueName('Refunds ');
  const res = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 150 }, data: { label: 'Start' } },
        agentNode('draft', agentId, 'Draft refund', 200, 120),
        {
          id: 'approve',
          type: 'approval',
          position: { x: 480, y: 120 },
          data: {
            label: 'Approve refund',
            title: 'Refund {{ input.amount }} € to {{ input.customer }}?',
            message: MESSAGE,
            fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }],
          },
        },
        agentNode('send', agentId, 'Send refund', 780, 0),
        agentNode('sorry', agentId, 'Say sorry', 780, 260),
        { id: 'end', type: 'end', position: { x: 1060, y: 150 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'draft' },
        { id: 'e2', source: 'draft', target: 'approve' },
        { id: 'e3', source: 'approve', target: 'send', sourceHandle: 'approved' },
        { id: 'e4', source: 'approve', target: 'sorry', sourceHandle: 'rejected' },
        { id: 'e5', source: 'send', target: 'end' },
        { id: 'e6', source: 'sorry', target: 'end' },
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

/** Starts the workflow with a refund's input; answers the run's id once it waits. */
async function startWaitingRun(request: APIRequestContext, headers: Headers, workflowId: string) {
  const started = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: { input: { amount: 120, customer: 'Acme' } },
  });
  expect(started.status(), await started.text()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  let run: Run | undefined;
  await expect
    .poll(
      async () => {
        run = await readRun(request, headers, id);
        return run.status;
      },
      { timeout: 30_000 },
    )
    .not.toMatch(/pending|running/);
  expect(run!.status, run!.error ?? undefined).toBe('waiting');
  return id;
}

/** The run once it ended (neither pending, running nor waiting). */
async function endedRun(request: APIRequestContext, headers: Headers, id: string) {
  let run: Run | undefined;
  await expect
    .poll(
      async () => {
        run = await readRun(request, headers, id);
        return run.status;
      },
      { timeout: 30_000 },
    )
    .not.toMatch(/pending|running|waiting/);
  return run!;
}

/**
 * Resolves once the page's live connection is subscribed to the organization's events (an event sent
 * before then does not reach it; the page's first reads already hold what happened until then).
 */
function subscribed(page: Page) {
  return new Promise<void>((resolve) => {
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"type":"subscribed"')) resolve();
      }),
    );
  });
}

const inboxLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });

test('the Inbox shows a waiting approval with its count; approving with a comment and the form sends the run down the approved path', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const workflow = await createRefundWorkflow(request, headers);

  // The app is open before the run asks: the count arrives over the live connection.
  await signInAs(page, account);
  const live = subscribed(page);
  await page.goto('/workflows');
  await live;
  await page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));
  await expect(inboxLink(page)).toHaveAccessibleName('Inbox');
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);

  fake.script([{ content: 'Draft: refund 120 € to Acme.' }, { content: 'Refund sent to Acme.' }]);
  const id = await startWaitingRun(request, headers, workflow.id);
  await expect(inboxLink(page)).toHaveAccessibleName(/^Inbox, 1 waiting$/, { timeout: 15_000 });
  await expect(page.getByTestId('inbox-count')).toHaveText('1');

  await inboxLink(page).click();
  await expect(page).toHaveURL(/\/inbox$/);
  const card = page.getByRole('article', { name: TITLE });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(card.getByTestId('approval-message')).toHaveText(MESSAGE);
  await expect(card.getByTestId('approval-workflow')).toHaveText(workflow.name);
  await snapScreens(page, card, 'approvals-inbox');

  const comment = 'Checked the duplicate charge.';
  await card.getByLabel(/^Amount\s*\*$/).fill('120');
  await card.getByLabel('Comment').fill(comment);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expectToast(page, 'Approved');
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  await expect(inboxLink(page)).toHaveAccessibleName('Inbox');
  // The card's outcome ('You approved · Approved', approval-outcome) shows for a few dozen
  // milliseconds only: the approval_decided event's refetch takes the card out of the list at once.
  await expect(card).toHaveCount(0);
  await expect(page.getByText('Nothing waits for you')).toBeVisible();

  const run = await endedRun(request, headers, id);
  expect(run.error).toBeNull();
  expect(run.status).toBe('completed');
  expect(run.output.send.status).toBe('completed');
  expect(run.output.sorry.status).toBe('skipped');
  expect(run.output.approve).toMatchObject({
    kind: 'approval',
    status: 'completed',
    data: {
      decision: 'approved',
      fields: { amount: 120 },
      decisions: [{ decision: 'approve', comment, via: 'inbox', fields: { amount: 120 } }],
    },
  });
  // The Decided tab keeps who decided, from where, the comment and the answer; no reload on the way.
  await page.getByRole('tab', { name: 'Decided' }).click();
  const decided = page.getByTestId('decided-approval-card').filter({ hasText: TITLE });
  await expect(decided).toContainText('Approved');
  const decision = decided.getByTestId('approval-decision');
  await expect(decision).toHaveCount(1);
  await expect(decision).toContainText('via Inbox');
  await expect(decision.getByTestId('approval-decision-comment')).toHaveText(`“${comment}”`);
  await expect(decision.getByRole('definition')).toHaveText('120');
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
});

test('the run’s details say what it waits for, reject there, and the run goes down the rejected path', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const workflow = await createRefundWorkflow(request, headers);
  fake.script([{ content: 'Draft: refund 120 € to Acme.' }, { content: 'Sorry, no refund this time.' }]);
  const id = await startWaitingRun(request, headers, workflow.id);
  await signInAs(page, account);

  // The builder marks the approval the run waits at.
  await page.goto(`/workflows/edit/${workflow.id}`);
  const node = page.getByTestId('node-approve');
  // The builder's first load (its canvas chunk) takes longer than a page on a machine busy with the
  // server suite beside the browser tests (CI once needed more than 15 s, during the route fuzz).
  await expect(node).toBeVisible({ timeout: 30_000 });
  await expect(node).toHaveAttribute('data-run-status', 'waiting', { timeout: 15_000 });
  await expect(node.getByTestId('node-run-status')).toHaveText('Waiting');
  // The step before it finished before the builder opened: the run's details say so (no event will).
  await expect(page.getByTestId('node-draft')).toHaveAttribute('data-run-status', 'completed');
  if (screenshotDir) {
    // The canvas help would cover the steps before the approval.
    await page.getByRole('button', { name: 'Hide canvas help' }).click();
    await page.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(400);
    await snap(page, 'approvals-builder-waiting-light-desktop');
  }

  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const card = page.getByRole('article', { name: `${workflow.name} execution ${id.slice(0, 8)}` });
  await card.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  await expect(details.getByTestId('execution-waiting')).toHaveText(`Waiting for approval · ${TITLE}`);
  const pending = details.getByTestId('run-approval');
  await expect(pending).toContainText(TITLE);
  await expect(pending).toContainText(MESSAGE);
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await pending.scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
      await snap(page, `approvals-run-details-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  // A rejection needs no answers to the form.
  const comment = 'Refunded last month already.';
  await pending.getByLabel('Comment').fill(comment);
  await pending.getByRole('button', { name: 'Reject' }).click();
  // The modal dialog keeps the toast out of the accessibility tree.
  await expect(page.locator('[data-slot="toast"]').filter({ hasText: 'Rejected' })).toBeVisible();

  const run = await endedRun(request, headers, id);
  expect(run.status).toBe('completed');
  expect(run.output.sorry.status).toBe('completed');
  expect(run.output.send.status).toBe('skipped');
  expect(run.output.approve).toMatchObject({
    data: { decision: 'rejected', decisions: [{ decision: 'reject', comment, via: 'run' }] },
  });

  // The details follow the run to its end and keep the decision's audit.
  await expect(details.getByTestId('execution-status')).toHaveText('Completed', { timeout: 15_000 });
  await expect(details.getByTestId('execution-waiting')).toHaveCount(0);
  const audit = details.getByTestId('run-approval-audit');
  await expect(audit).toContainText(TITLE);
  await expect(audit.getByTestId('approval-decision')).toHaveCount(1);
  await expect(audit.getByTestId('approval-decision')).toContainText('Rejected');
  await expect(audit.getByTestId('approval-decision')).toContainText('via Run view');
  await expect(audit.getByTestId('approval-decision-comment')).toHaveText(`“${comment}”`);
  await snap(page, 'approvals-run-details-decided-light-desktop');
});

test('a waiting run shows Waiting on its card and can be cancelled', async ({ page, request, fake }) => {
  test.setTimeout(90_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const workflow = await createRefundWorkflow(request, headers);
  const id = await startWaitingRun(request, headers, workflow.id);

  await signInAs(page, account);
  await page.goto('/workflows');
  await expect(page.getByTestId('inbox-count')).toHaveText('1');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const card = page.getByRole('article', { name: `${workflow.name} execution ${id.slice(0, 8)}` });
  await expect(card.getByTestId('execution-status')).toHaveText('Waiting');
  await expect(card.getByTestId('execution-waiting')).toHaveText(`Waiting for approval · ${TITLE}`);
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expectToast(page, 'Execution Cancelled');
  await expect(card.getByTestId('execution-status')).toHaveAttribute('data-status', 'cancelled');
  await expect(card.getByTestId('execution-waiting')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  // Its approval went with it: nothing waits in the Inbox any more.
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  expect((await readRun(request, headers, id)).status).toBe('cancelled');
});
