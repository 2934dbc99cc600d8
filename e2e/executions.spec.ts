import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import {
  expect,
  expectToast,
  screenshotDir,
  signInAs,
  snap,
  snapScreens,
  uniqueName,
  type Account,
} from './fixtures';
import { test } from './fake-model';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

/** A cost as the screens write it: '$0.0042', or '< $0.0001' for a tiny one (gpt-4o is priced, so never 'unknown'). */
const COST = /^(< )?\$\d[\d,]*\.\d{2,4}$/;

async function onlyExecution(request: APIRequestContext, account: Account) {
  const res = await request.get('/api/executions', {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(res.ok()).toBe(true);
  const list = await res.json();
  expect(list).toHaveLength(1);
  // The list answers summaries; what the run was started with is in the run itself.
  const run = await request.get(`/api/executions/${list[0].id}`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(run.ok()).toBe(true);
  return (await run.json()) as {
    id: string;
    dynamicInstructions: string | null;
    parameters: Record<string, unknown>;
  };
}

test('execute a workflow with instructions and a parameter, follow it live, read and download its output', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url);
  const instructions = `Only cover ${uniqueName('vendor-')} and keep it short.`;
  const reply = 'Prices rose 4% this week.\n\n  Indented line kept.\n<b>not bold</b>';
  // The model answers after a pause, so the run is seen pending or running before it completes (3.5 s
  // was once too short for a loaded CI machine to open the Executions tab in).
  fake.script([{ content: reply, delayMs: 8000 }]);

  await signInAs(page, account);
  await page.goto('/workflows');
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));

  // Activate the draft, then Execute appears.
  const card = page.getByRole('article', { name: workflow.name });
  await expect(card.getByRole('button', { name: 'Last Result' })).toBeDisabled();
  await card.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await card.getByRole('button', { name: 'Execute' }).click();

  // The Execute dialog: instructions, and a parameter that is renamed and given a value.
  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('execute-summary')).toHaveCount(0);
  await dialog.getByLabel('Runtime Instructions').fill(instructions);
  await expect(dialog.getByTestId('execute-summary')).toContainText('Instructions provided');

  await dialog.getByRole('button', { name: 'Add Parameter' }).click();
  await dialog.getByRole('button', { name: 'Add Parameter' }).click();
  await expect(dialog.getByLabel('Parameter 1 name')).toHaveValue('param_1');
  await expect(dialog.getByLabel('Parameter 2 name')).toHaveValue('param_2');
  await expect(dialog.getByTestId('execute-summary')).toContainText('2 parameters');
  // A duplicate name is refused inline and blocks Execute.
  await dialog.getByLabel('Parameter 2 name').fill('param_1');
  await expect(dialog.getByText('Another parameter already has this name')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Execute' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Remove param_1' }).last().click();
  await expect(dialog.getByTestId('parameter-row')).toHaveCount(1);
  await expect(dialog.getByTestId('execute-summary')).toContainText('1 parameter');

  await dialog.getByLabel('Parameter 1 name').fill('region');
  await dialog.getByLabel('Parameter 1 value').fill('EU-West');
  await snap(page, 'execute-dialog');
  await dialog.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, 'Workflow Started');
  await expectToast(page, `"${workflow.name}" execution has been started with custom instructions`);
  await expect(dialog).toBeHidden();

  const started = await onlyExecution(request, account);
  expect(started.dynamicInstructions).toBe(instructions);
  expect(started.parameters).toEqual({ region: 'EU-West' });
  const shortId = started.id.slice(0, 8);

  // The Executions tab follows the run through realtime events, without a reload.
  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByRole('article', { name: `${workflow.name} execution ${shortId}` });
  await expect(run).toBeVisible();
  await expect(run.getByText(`ID: ${shortId}`)).toBeVisible();
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', /^(pending|running)$/);
  await expect(run.getByTestId('execution-process-type')).toHaveText('Sequential');
  await expect(run.getByTestId('execution-triggered-by')).not.toHaveText('');
  await expect(run.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'running', {
    timeout: 15_000,
  });
  await expect(run.getByTestId('execution-duration')).toHaveText(/^\d+s$/);
  await snap(page, 'executions-tab-running');
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 20_000,
  });
  await expect(run.getByTestId('execution-status')).toHaveText('Completed');
  await expect(run.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(run.getByTestId('execution-output')).toContainText('Prices rose 4% this week.');
  await expect(run.getByTestId('execution-started')).not.toHaveText('Not started');
  // What the run cost, from the fake model's reported usage at gpt-4o's price.
  await expect(run.getByTestId('execution-cost')).toHaveText(COST);
  const cardCost = (await run.getByTestId('execution-cost').textContent()) ?? '';
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  await snap(page, 'executions-tab');

  // The model was given the run's instructions and parameter.
  const calls = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(calls).toHaveLength(1);
  const prompt = JSON.stringify(calls[0].body.messages);
  expect(prompt).toContain(`Instructions for this run:\\n${instructions}`);
  expect(prompt).toContain('- region: EU-West');

  // View Details: agent, content as plain text (whitespace kept, markup not interpreted), ms, tokens.
  await run.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  await expect(details).toBeVisible();
  await expect(details.getByTestId('execution-status')).toHaveText('Completed');
  const output = details.getByTestId('agent-output');
  await expect(output).toHaveCount(1);
  await expect(output.getByTestId('agent-output-name')).toHaveText(AGENT.name);
  await expect(output.getByTestId('agent-output-time')).toHaveText(/^[\d,.\s]+ ms$/);
  await expect(output.getByTestId('agent-output-tokens')).toHaveText(
    /^[1-9][\d,.\s]* tokens · (< )?\$\d[\d,]*\.\d{2,4}$/,
  );
  // The run's Cost beside its tokens: the same amount as its card's.
  await expect(details.getByTestId('execution-cost')).toHaveText(cardCost);
  await snapScreens(page, details, 'execution-details-cost');
  const content = output.getByTestId('agent-output-content');
  expect(await content.evaluate((el) => el.textContent)).toBe(reply);
  await expect(content.locator('b')).toHaveCount(0);
  await expect(content).toHaveCSS('white-space', 'pre-wrap');
  await details.getByRole('tab', { name: /Input/ }).click();
  await expect(details.getByText(instructions)).toBeVisible();
  await expect(details.getByText('EU-West')).toBeVisible();
  await snap(page, 'execution-details-input');
  await details.getByRole('tab', { name: /Logs/ }).click();
  await expect(details.getByRole('list', { name: 'Execution logs' }).getByRole('listitem')).not.toHaveCount(
    0,
  );
  await snap(page, 'execution-details-logs');
  await details.getByRole('tab', { name: /Output/ }).click();
  await snap(page, 'execution-details');

  // Download: execution-<8 chars>-output.json holding the output by node id.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    details.getByRole('button', { name: 'Download Results' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`execution-${shortId}-output.json`);
  const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(file.analyst).toMatchObject({
    content: reply,
    metadata: { agentName: AGENT.name },
    usage: { totalTokens: expect.any(Number) },
  });
  expect(file.analyst.executionTime).toEqual(expect.any(Number));
  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(details).toBeHidden();

  // Last Result on the workflow card opens the same run.
  await page.getByRole('tab', { name: 'Workflows' }).click();
  await card.getByRole('button', { name: 'Last Result' }).click();
  await expect(details).toBeVisible();
  await expect(details).toContainText(`ID ${shortId}`);
  await expect(details.getByTestId('agent-output-name')).toHaveText(AGENT.name);

  // Dark theme screenshots for review (the default theme follows the system).
  if (screenshotDir) {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(500);
    await snap(page, 'execution-details-dark');
    await details.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('tab', { name: 'Executions' }).click();
    await page.waitForTimeout(300);
    await snap(page, 'executions-tab-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }

  // The dashboard, reached without a reload, counts and lists the run.
  if (await details.isVisible()) await details.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('tab', { name: 'Recent Executions' }).click();
  const recent = page.getByRole('tabpanel', { name: 'Recent Executions' });
  await expect(recent).toContainText(workflow.name);
  await expect(recent).toContainText(/completed/i);
  // With what it cost beside its time (gpt-4o has a price).
  await expect(recent.getByTestId('execution-cost')).toContainText(/\$\d|< \$0\.0001/);
  await snap(page, 'dashboard-recent-executions');
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
});

test('a run can be cancelled, and a refused start says Execution Failed', async ({ page, request, fake }) => {
  test.setTimeout(60_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  fake.script([{ content: 'Too late', delayMs: 20_000 }]);
  await signInAs(page, account);
  await page.goto('/workflows');

  const card = page.getByRole('article', { name: workflow.name });
  await card.getByRole('button', { name: 'Execute' }).click();
  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await dialog.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, 'Workflow Started');

  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByTestId('execution-card');
  await expect(run).toHaveCount(1);
  await run.getByRole('button', { name: 'Cancel' }).click();
  await expectToast(page, 'Execution Cancelled');
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'cancelled');
  await expect(run.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  // The server refuses the next start (as it does for a workflow that cannot run).
  await page.route('**/api/workflows/*/execute', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'This workflow is paused and cannot be run.' }),
    }),
  );
  await page.getByRole('tab', { name: 'Workflows' }).click();
  await card.getByRole('button', { name: 'Execute' }).click();
  await dialog.getByRole('button', { name: 'Execute' }).click();
  // The dialog stays open, so the toast is outside the accessibility tree (the modal hides it).
  const failed = page.locator('[data-slot="toast"]').filter({ hasText: 'Execution Failed' });
  await expect(failed).toBeVisible();
  await expect(failed).toContainText(
    'Failed to start workflow execution: This workflow is paused and cannot be run.',
  );
  await snap(page, 'execute-failed');
  // The dialog stays open to try again.
  await expect(dialog).toBeVisible();
});

test('the builder marks each agent node live while a run of its workflow is in progress', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  fake.script([{ content: 'Digest ready', delayMs: 2500 }]);
  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  const node = page.locator('[data-run-status]').filter({ hasText: AGENT.name });
  await expect(page.getByText(AGENT.name).first()).toBeVisible();
  await expect(page.getByTestId('node-run-status')).toHaveCount(0);

  // Started elsewhere (another tab, a schedule): the open builder learns of it over the websocket.
  const started = await request.post(`/api/workflows/${workflow.id}/execute`, { headers, data: {} });
  expect(started.status()).toBe(202);
  await expect(page.getByTestId('node-run-status')).toContainText('Running');
  await expect(page.getByTestId('node-run-status')).toContainText('Done', { timeout: 15_000 });
  await expect(node).toHaveAttribute('data-run-status', 'completed');
  await snap(page, 'builder-run-done');
});
