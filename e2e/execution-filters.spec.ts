import type { APIRequestContext } from '@playwright/test';
import {
  expect,
  inEachSchemeAndSize,
  screenshotDir,
  snap,
  snapScreens,
  signInAs,
  type Account,
} from './fixtures';
import { createChainWorkflow } from './chain-workflow';
import { test } from './fake-model';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

// The Executions tab's filters (kept in the address), Load more under a filtered list, a workflow
// card's View Executions, the running card's step line and the Output box's readable text with its
// JSON view.

const WRITER = { name: 'Report Writer', role: 'Writes the report' };

/** A second, active workflow in the account: Start → Market Analyst → Report Writer → End. */
async function createTwoStepWorkflow(request: APIRequestContext, headers: Record<string, string>) {
  const agents = await (await request.get('/api/agents', { headers })).json();
  const analyst = agents.find((a: { name: string }) => a.name === AGENT.name);
  const writerRes = await request.post('/api/agents', {
    headers,
    data: { ...WRITER, goal: 'Write the report', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(writerRes.status()).toBe(201);
  const writer = await writerRes.json();
  return createChainWorkflow(request, headers, 'Weekly report ', [
    { nodeId: 'analyst', agentId: analyst.id, label: AGENT.name },
    { nodeId: 'writer', agentId: writer.id, label: WRITER.name },
  ]);
}

async function execute(request: APIRequestContext, account: Account, workflowId: string) {
  const res = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers: { authorization: `Bearer ${account.token}` },
    data: {},
  });
  expect(res.status()).toBe(202);
  return (await res.json()).id as string;
}

async function waitForStatus(request: APIRequestContext, account: Account, id: string, status: string) {
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get(`/api/executions/${id}`, {
              headers: { authorization: `Bearer ${account.token}` },
            })
          ).json()
        ).status,
      { timeout: 20_000 },
    )
    .toBe(status);
}

test('filter the Executions tab by workflow, keep it on reload, open a workflow’s runs, read a run’s output', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers, workflow: digest } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  const report = await createTwoStepWorkflow(request, headers);

  // Two runs of the digest, done before the page opens.
  fake.script([
    { content: 'Prices rose 4% this week.\n\nShipping costs fell.' },
    { content: 'Second digest.' },
  ]);
  const digestRuns = [await execute(request, account, digest.id)];
  await waitForStatus(request, account, digestRuns[0], 'completed');
  digestRuns.push(await execute(request, account, digest.id));
  await waitForStatus(request, account, digestRuns[1], 'completed');

  await signInAs(page, account);
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  await expect(page).toHaveURL(/\/workflows\?tab=executions$/);
  await expect(page.getByTestId('execution-card')).toHaveCount(2);

  // The report's run, slow at each step: its card says which step is at work.
  fake.script([
    { content: 'Analysis done.', delayMs: 2500 },
    { content: 'The weekly report: all good.', delayMs: 9000 },
  ]);
  const reportRun = await execute(request, account, report.id);
  const running = page.locator(`[data-execution-id="${reportRun}"]`);
  await expect(running.getByTestId('execution-step')).toHaveText(`Step 1 of 2 · ${AGENT.name}`, {
    timeout: 15_000,
  });
  await expect(running.getByTestId('execution-step')).toHaveText(`Step 2 of 2 · ${WRITER.name}`, {
    timeout: 15_000,
  });
  // A reload mid-run: the card reads which steps are done and still names the one at work.
  await page.reload();
  await expect(running.getByTestId('execution-step')).toHaveText(`Step 2 of 2 · ${WRITER.name}`);
  await snapScreens(page, running, 'runlists-running-card', { waitForToasts: false });
  await expect(running.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 20_000,
  });
  await expect(running.getByTestId('execution-step')).toHaveCount(0);
  await expect(page.getByTestId('execution-card')).toHaveCount(3);

  // Filter by the digest: only its two runs; the address keeps the filter.
  await page.getByRole('combobox', { name: 'Filter by workflow' }).click();
  await page.getByRole('option', { name: digest.name }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]workflow=${digest.id}`));
  const cards = page.getByTestId('execution-card');
  await expect(cards).toHaveCount(2);
  const shown = async () =>
    (await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-execution-id')))).sort();
  expect(await shown()).toEqual([...digestRuns].sort());
  await snapScreens(page, page.getByRole('search', { name: 'Filter executions' }), 'runlists-filtered', {
    waitForToasts: false,
  });

  // A status that none of them has: the filtered empty state.
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await expect(page.getByText('No matching executions')).toBeVisible();
  // Back returns to the workflow filter alone.
  await page.goBack();
  await expect(cards).toHaveCount(2);
  await expect(page).not.toHaveURL(/status=/);

  // Reload: still the Executions tab, the filter and the same runs.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Executions' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Filter by workflow' })).toContainText(digest.name);
  await expect(cards).toHaveCount(2);
  expect(await shown()).toEqual([...digestRuns].sort());

  // Reset Filters shows every run again.
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(cards).toHaveCount(3);

  // A workflow card's menu: View Executions lands on that workflow's runs.
  await page.getByRole('tab', { name: 'Workflows' }).click();
  const reportCard = page.getByRole('article', { name: report.name });
  await reportCard.getByRole('button', { name: 'Workflow actions' }).click();
  await snapScreens(page, page.getByRole('menuitem', { name: 'View Executions' }), 'runlists-card-menu', {
    waitForToasts: false,
  });
  await page.getByRole('menuitem', { name: 'View Executions' }).click();
  await expect(page).toHaveURL(new RegExp(`tab=executions&workflow=${report.id}`));
  await expect(page.getByRole('tab', { name: 'Executions' })).toHaveAttribute('aria-selected', 'true');
  await expect(cards).toHaveCount(1);
  const done = page.locator(`[data-execution-id="${reportRun}"]`);

  // The Output box: the final answer as text, its raw JSON one click away.
  await expect(done.getByTestId('execution-output')).toHaveText('The weekly report: all good.');
  await done.getByRole('button', { name: 'JSON' }).click();
  await expect(done.getByRole('button', { name: 'JSON' })).toHaveAttribute('aria-pressed', 'true');
  await expect(done.getByTestId('execution-output-json')).toHaveText('"The weekly report: all good."');
  await snapScreens(page, done, 'runlists-output-json', { waitForToasts: false });
  await done.getByRole('button', { name: 'JSON' }).click();
  await expect(done.getByTestId('execution-output')).toBeVisible();
  await snapScreens(page, done, 'runlists-output-text', { waitForToasts: false });

  // Analytics for 30 days: the chart's summary figures are the range's, labelled with it.
  await page.goto('/analytics?days=30');
  const overview = page.getByRole('tabpanel', { name: 'Overview' });
  const totals = overview.locator('div', { has: page.getByText('Total Executions', { exact: true }) }).last();
  await expect(totals).toContainText('3');
  await expect(totals).toContainText('Last 30 days');
  await expect(overview.getByText('Last 7 days', { exact: true })).toHaveCount(0);
  await snapScreens(page, overview, 'runlists-analytics-30d', { waitForToasts: false });
});

/** Runs a page of the Executions tab holds (EXECUTIONS_PAGE_SIZE in the web app). */
const PAGE_SIZE = 24;

test('Load more: the next page of a filtered list shows under the first; a new filter starts again', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(150_000);
  const { account, headers, workflow: digest } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  const report = await createTwoStepWorkflow(request, headers);

  // Two pages of the digest's runs, and one run of the report that its filter leaves out.
  const digestRuns: string[] = [];
  for (let i = 0; i < PAGE_SIZE + 2; i++) digestRuns.push(await execute(request, account, digest.id));
  await execute(request, account, report.id);
  const finished = async () =>
    (
      (await (await request.get('/api/executions?limit=200', { headers })).json()) as { status: string }[]
    ).filter((run) => run.status === 'completed').length;
  await expect.poll(finished, { timeout: 60_000 }).toBe(PAGE_SIZE + 3);

  await signInAs(page, account);
  await page.goto(`/workflows?tab=executions&workflow=${digest.id}`);
  const cards = page.getByTestId('execution-card');
  const loadMore = page.getByRole('button', { name: 'Load more' });
  await expect(cards).toHaveCount(PAGE_SIZE);
  await expect(loadMore).toBeVisible();
  if (screenshotDir) {
    await inEachSchemeAndSize(page, async (scheme, size) => {
      await loadMore.scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
      await snap(page, `runlists2-load-more-${scheme}-${size}`);
    });
  }

  // Load more: the rest of the digest's runs under the first page, each once; the filter stays.
  await loadMore.click();
  await expect(cards).toHaveCount(PAGE_SIZE + 2);
  await expect(loadMore).toHaveCount(0);
  const shown = async () =>
    (await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-execution-id')))).sort();
  expect(await shown()).toEqual([...digestRuns].sort());
  await expect(page).toHaveURL(new RegExp(`[?&]workflow=${digest.id}`));

  // A run started now shows at the top, above both pages.
  const fresh = await execute(request, account, digest.id);
  await expect(cards).toHaveCount(PAGE_SIZE + 3);
  await expect(cards.first()).toHaveAttribute('data-execution-id', fresh);

  // Another filter starts again from its first page.
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Completed' }).click();
  await expect(page).toHaveURL(/status=completed/);
  await expect(cards).toHaveCount(PAGE_SIZE);
  await expect(loadMore).toBeVisible();

  // Every workflow: two pages again, the report's run among them once loaded.
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(cards).toHaveCount(PAGE_SIZE);
  await loadMore.click();
  await expect(cards).toHaveCount(PAGE_SIZE + 4);
  await expect(loadMore).toHaveCount(0);
  await expect(page.getByRole('article', { name: new RegExp(`^${report.name} execution`) })).toHaveCount(1);
});
