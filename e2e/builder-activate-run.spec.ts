import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { expect, expectToast, signInAs, snapScreens, test } from './fixtures';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

// The first hour: Run on a draft offers 'Activate and run' and stays in the builder; Pause and Resume
// sit in the builder's header; and the names on the cards and the dashboard are links to their pages.

let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

test('Run on a draft: Activate and run saves, activates, stays in the builder and runs', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'draft');
  fake.script([{ content: 'Prices are steady this week.' }]);
  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  // An unsaved edit goes with the activation.
  await page.getByRole('textbox', { name: 'Workflow name' }).fill(`${workflow.name} (v2)`);

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const prompt = page.getByRole('alertdialog', { name: 'This workflow is not active.' });
  await expect(prompt).toBeVisible();
  await snapScreens(page, prompt, 'full4-activate-and-run');
  await prompt.getByRole('button', { name: 'Activate and run' }).click();

  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await expect(dialog).toBeVisible();
  await expect(prompt).toHaveCount(0);
  // The open dialog hides the page (and its notifications region) from the accessibility tree.
  await expect(page.locator('[data-slot="toast"]').filter({ hasText: 'Workflow Activated' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/workflows/edit/${workflow.id}$`));
  // What was saved: active, with the edit. The run uses it, so no unsaved-changes notice.
  const saved = await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json();
  expect([saved.status, saved.name]).toEqual(['active', `${workflow.name} (v2)`]);
  await expect(dialog.getByTestId('run-unsaved-notice')).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, `"${workflow.name} (v2)" execution has been started`);
  // Active now: the header offers Pause.
  await expect(page.locator('main header').first().getByRole('button', { name: 'Pause' })).toBeVisible();
  const step = page.getByTestId('run-panel').getByTestId('run-panel-step');
  await expect(step.getByTestId('run-panel-step-name')).toHaveText(AGENT.name);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-run-status', 'completed', {
    timeout: 15_000,
  });
  await expect(step.getByTestId('run-panel-step-text')).toHaveText('Prices are steady this week.');
});

test('a new workflow: Activate and run creates it, moves to its address and opens Execute', async ({
  page,
  request,
}) => {
  const { account } = await setUpOneAgentWorkflow(request, fake.url, 'draft');
  await signInAs(page, account);
  await page.goto('/workflows/new');
  await page.getByRole('textbox', { name: 'Workflow name' }).fill('Fresh digest');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: 'This workflow is not active.' })
    .getByRole('button', { name: 'Activate and run' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Execute Workflow' })).toBeVisible();
  await expect(page).toHaveURL(/\/workflows\/edit\/[0-9a-f-]{36}$/);
});

test('Pause and Resume from the builder header', async ({ page, request }) => {
  test.setTimeout(60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  const header = page.locator('main header').first();

  await header.getByRole('button', { name: 'Pause' }).click();
  await expectToast(page, 'Workflow Paused');
  await expect(header.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  expect((await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json()).status).toBe(
    'paused',
  );
  await snapScreens(page, header, 'full4-builder-paused');

  // A paused workflow's Run offers to resume it first.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alertdialog', { name: 'This workflow is not active.' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await header.getByRole('button', { name: 'Resume' }).click();
  await expectToast(page, 'Workflow Resumed');
  await expect(header.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect((await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json()).status).toBe(
    'active',
  );
  // Nothing was edited: leaving asks nothing.
  await page.getByRole('button', { name: 'Back to Workflows' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
});

test('names are links: a workflow title, an agent title and a dashboard run', async ({ page, request }) => {
  test.setTimeout(60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  const started = await request.post(`/api/workflows/${workflow.id}/execute`, {
    headers,
    data: { input: {}, dynamicInstructions: '', parameters: {} },
  });
  expect(started.status()).toBe(202);
  const executionId = (await started.json()).id as string;
  await signInAs(page, account);

  await page.goto('/workflows');
  const title = page.getByRole('article', { name: workflow.name }).getByRole('link', { name: workflow.name });
  await expect(title).toHaveAttribute('href', `/workflows/edit/${workflow.id}`);
  await title.click();
  await expect(page).toHaveURL(new RegExp(`/workflows/edit/${workflow.id}$`));
  await expect(page.getByRole('textbox', { name: 'Workflow name' })).toHaveValue(workflow.name);

  await page.goto('/agents');
  await page.getByTestId('agent-card').getByRole('link', { name: AGENT.name }).click();
  await expect(page).toHaveURL(/\/agents\/edit\/[0-9a-f-]{36}$/);

  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Recent Executions' }).click();
  const row = page.getByRole('tabpanel').getByRole('link', { name: new RegExp(workflow.name) });
  await expect(row).toHaveAttribute('href', `/workflows?tab=executions&run=${executionId}`);
  // The keyboard opens it too.
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Execution Details' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`run=${executionId}`));
});
