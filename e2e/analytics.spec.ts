import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { createAccount, expect, screenshotDir, signInAs, snap, test } from './fixtures';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

// A fake model server of this test's own: its scripted replies are not shared with other specs.
let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

// The analytics screens are taller than the window: their screenshots are of the whole page.
const snapPage = (page: Page, name: string) => snap(page, name, { fullPage: true });

type Headers = Record<string, string>;

/** Starts a run through the API and waits until it has ended with `status`. */
async function runWorkflow(
  request: APIRequestContext,
  headers: Headers,
  workflowId: string,
  status: 'completed' | 'failed',
) {
  const res = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: { input: {}, dynamicInstructions: '', parameters: {} },
  });
  expect(res.status()).toBe(202);
  const { id } = await res.json();
  await expect
    .poll(
      async () => {
        const list = await (await request.get('/api/executions', { headers })).json();
        return (list as { id: string; status: string }[]).find((run) => run.id === id)?.status;
      },
      { timeout: 20_000 },
    )
    .toBe(status);
}

test('analytics shows the runs, follows a new one live and exports the figures', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  fake.script([{ content: 'Prices are steady this week.' }]);
  await runWorkflow(request, headers, workflow.id, 'completed');

  const analyticsUrls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/analytics')) analyticsUrls.push(req.url());
  });
  await signInAs(page, account);
  await page.goto('/analytics');
  await expect(page).toHaveTitle('Analytics · Crewline');
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));

  // The metric cards.
  const value = (card: string) => page.getByTestId(card).getByTestId('stat-value');
  await expect(value('metric-total-agents')).toHaveText('1');
  // A new agent's status is the server's business: the card says what the stats say.
  const stats = await (
    await request.get(`/api/organizations/${account.organizationId}/stats`, { headers })
  ).json();
  await expect(page.getByTestId('metric-total-agents')).toContainText(`${stats.activeAgents} active`);
  await expect(value('metric-active-workflows')).toHaveText('1');
  await expect(page.getByTestId('metric-active-workflows')).toContainText('1 total');
  await expect(value('metric-success-rate')).toHaveText('100%');
  await expect(page.getByTestId('metric-success-rate')).toContainText('0 failed');
  await expect(value('metric-avg-execution-time')).toHaveText(/^\d+(\.\d)?s$/);
  await expect(page.getByTestId('metric-avg-execution-time')).toContainText('1 recent');
  // The run never waited: its whole time is working time.
  await expect(value('metric-avg-wait-time')).toHaveText('0s');
  await expect(page.getByRole('combobox', { name: 'Time range' })).toHaveText('Last 7 days');
  // Sent with the range and the browser's time zone.
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(analyticsUrls.some((url) => url.includes(`days=7&tz=${encodeURIComponent(timeZone)}`))).toBe(true);

  // Overview: seven bars, today's (the last) at 100 %; System Health and Recent Activity.
  const overview = page.getByRole('tabpanel', { name: 'Overview' });
  const bars = overview.getByTestId('success-bar');
  await expect(bars).toHaveCount(7);
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  await expect(bars.last()).toHaveAttribute('data-date', today);
  await expect(bars.last()).toHaveAttribute('aria-label', /: 100% success, 1 run$/);
  await expect(bars.first()).toHaveAttribute('aria-label', /: no runs$/);
  await expect(overview.getByText('Avg Success Rate')).toBeVisible();
  await expect(overview.getByText('System Health')).toBeVisible();
  await expect(overview.getByText('Workflow Engine')).toBeVisible();
  await expect(overview.getByText('Database')).toBeVisible();
  const activity = overview.getByTestId('analytics-activity');
  await expect(activity).toHaveCount(1);
  await expect(activity).toHaveText(new RegExp(`${workflow.name} completed successfully`));
  await snapPage(page, 'analytics-overview');

  // Agents: utilization and the top agents.
  await page.getByRole('tab', { name: 'Agents' }).click();
  const agentsTab = page.getByRole('tabpanel', { name: 'Agents' });
  const utilization = agentsTab.getByTestId('agent-utilization-row').filter({ hasText: AGENT.name });
  await expect(utilization).toContainText('1 run');
  await expect(agentsTab.getByTestId('top-agent-row').filter({ hasText: AGENT.name })).toContainText('100%');
  await snapPage(page, 'analytics-agents');

  // Workflows: one row for the workflow that ran.
  await page.getByRole('tab', { name: 'Workflows' }).click();
  const row = page.getByRole('tabpanel', { name: 'Workflows' }).getByTestId('workflow-analytics-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(workflow.name);
  await expect(row).toContainText('100%');
  await snapPage(page, 'analytics-workflows');

  await page.getByRole('tab', { name: 'Performance' }).click();
  const performance = page.getByRole('tabpanel', { name: 'Performance' });
  await expect(performance.getByTestId('metric-p50').getByTestId('stat-value')).toHaveText(/^\d+(\.\d)?s$/);
  await expect(performance.getByText('Tokens per Day')).toBeVisible();
  await expect(performance.getByRole('list', { name: 'Slowest agents' })).toContainText(AGENT.name);
  await snapPage(page, 'analytics-performance');

  // A second run whose model call fails: the open page refetches on the realtime event.
  fake.script([{ error: { status: 400, message: 'model "gpt-4o" is overloaded' } }]);
  await runWorkflow(request, headers, workflow.id, 'failed');
  await expect(value('metric-success-rate')).toHaveText('50%', { timeout: 15_000 });
  await expect(page.getByTestId('metric-success-rate')).toContainText('1 failed');
  await expect(page.getByTestId('metric-avg-execution-time')).toContainText('2 recent');
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(bars.last()).toHaveAttribute('aria-label', /: 50% success, 2 runs$/);
  await expect(activity).toHaveCount(2);
  await expect(activity.first()).toHaveText(new RegExp(`${workflow.name} failed execution`));
  await expect(activity.first()).toHaveAttribute('data-status', 'failed');
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);

  // Refresh spins for about a second.
  const refresh = page.getByRole('button', { name: 'Refresh', exact: true });
  await refresh.click();
  await expect(refresh.locator('svg')).toHaveClass(/animate-spin/);
  await expect(refresh).toBeEnabled({ timeout: 5_000 });
  await expect(refresh.locator('svg')).not.toHaveClass(/animate-spin/);

  // Last 24h, then Export saves what is shown.
  await page.getByRole('combobox', { name: 'Time range' }).click();
  await page.getByRole('option', { name: 'Last 24h' }).click();
  await expect(page.getByRole('combobox', { name: 'Time range' })).toHaveText('Last 24h');
  await expect(value('metric-success-rate')).toHaveText('50%');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('crewline-analytics-24h.json');
  const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(file.range.days).toBe('24');
  expect(file.current).toMatchObject({ executions: 2, successful: 1, failed: 1 });
  expect(file.workflows).toHaveLength(1);
  // The range is in the address, so a reload keeps it.
  await expect(page).toHaveURL(/\/analytics\?days=24$/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Time range' })).toHaveText('Last 24h');
  await expect(value('metric-success-rate')).toHaveText('50%');

  // Screens for review: dark theme, then a phone.
  if (screenshotDir) {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    await snapPage(page, 'analytics-overview-dark');
    await page.getByRole('tab', { name: 'Agents' }).click();
    await snapPage(page, 'analytics-agents-dark');
    await page.getByRole('tab', { name: 'Workflows' }).click();
    await snapPage(page, 'analytics-workflows-dark');
    await page.getByRole('tab', { name: 'Performance' }).click();
    await snapPage(page, 'analytics-performance-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.waitForTimeout(300);
    await snapPage(page, 'analytics-phone-overview');
    await page.getByRole('tab', { name: 'Agents' }).click();
    await snapPage(page, 'analytics-phone-agents');
    await page.getByRole('tab', { name: 'Workflows' }).click();
    await snapPage(page, 'analytics-phone-workflows');
    await page.getByRole('tab', { name: 'Performance' }).click();
    await snapPage(page, 'analytics-phone-performance');
  }
});

test('a new organization sees helpful empty states, not empty charts', async ({ page, request }) => {
  const account = await createAccount(request);
  await signInAs(page, account);
  await page.goto('/analytics');
  // The first load of the page (its chunk, then two reads) may take longer than an assertion's 7 s
  // while CI runs the server suites beside the browser: it gets the time the other test gives it.
  await expect(page.getByTestId('metric-total-agents').getByTestId('stat-value')).toHaveText('0', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('metric-success-rate').getByTestId('stat-value')).toHaveText('—');
  await expect(page.getByText('No runs in the last 7 days')).toBeVisible();
  await expect(page.getByTestId('success-bar')).toHaveCount(0);
  await expect(page.getByText('No runs yet. Execute a workflow to see it here.')).toBeVisible();
  await snapPage(page, 'analytics-empty');
  await page.getByRole('tab', { name: 'Workflows' }).click();
  await expect(page.getByText('No workflow ran in this period')).toBeVisible();
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(page.getByText('No agents yet')).toBeVisible();
  await snapPage(page, 'analytics-empty-agents');
});
