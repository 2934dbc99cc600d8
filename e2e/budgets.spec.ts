import type { APIRequestContext } from '@playwright/test';
import { expect, expectToast, signInAs, snapScreens } from './fixtures';
import { test } from './fake-model';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

/** Starts a run through the API and waits until it has ended; answers its status. */
async function runToEnd(request: APIRequestContext, headers: Record<string, string>, workflowId: string) {
  const res = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: { input: {}, dynamicInstructions: '', parameters: {} },
  });
  expect(res.status()).toBe(202);
  const { id } = await res.json();
  let status = '';
  await expect
    .poll(
      async () => {
        const list = await (await request.get('/api/executions', { headers })).json();
        status = (list as { id: string; status: string }[]).find((run) => run.id === id)?.status ?? '';
        return ['completed', 'failed', 'cancelled'].includes(status);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return status;
}

test('an admin caps the monthly spend in Settings → Costs and sets a workflow’s budget in the builder', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await signInAs(page, account);

  // Settings → Costs: the budget above the prices, no cap yet.
  await page.goto('/settings/profile?tab=costs');
  const card = page.getByTestId('budget-card');
  await expect(card.getByText('Spent this month: $0.00 — no cap')).toBeVisible();
  const box = await card.boundingBox();
  const pricesBox = await page.getByTestId('prices-card').boundingBox();
  expect(box!.y).toBeLessThan(pricesBox!.y);

  await card.getByLabel('Monthly cap (USD)').fill('25');
  await card.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Monthly cap saved');
  await expect(card.getByText('Spent this month: $0.00 of $25.00')).toBeVisible();
  await expect(card.getByRole('progressbar')).toBeVisible();
  await snapScreens(page, card, 'budget-card');

  // Kept by the server.
  await page.reload();
  await expect(card.getByText('Spent this month: $0.00 of $25.00')).toBeVisible();
  await expect(card.getByLabel('Monthly cap (USD)')).toHaveValue('25');

  // The builder: the workflow's own budget, in the Settings tab.
  await page.goto(`/workflows/edit/${workflow.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const budget = page.getByRole('region', { name: 'Budget' });
  await budget.getByLabel('Max cost per run (USD)').fill('0');
  await expect(budget.getByText('A budget must be more than $0')).toBeVisible();
  await budget.getByLabel('Max cost per run (USD)').fill('0.5');
  await expect(budget.getByText('A budget must be more than $0')).toHaveCount(0);
  await budget.getByLabel('Monthly cap (USD)').fill('10');
  await budget.getByLabel('When a run reaches its budget').click();
  await page.getByRole('option', { name: 'Ask for approval to go on' }).click();
  await snapScreens(page, budget, 'builder-budget');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page).toHaveURL(/\/workflows$/);

  // Reopened: as saved, and so is the workflow's config.
  await page.goto(`/workflows/edit/${workflow.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(budget.getByLabel('Max cost per run (USD)')).toHaveValue('0.5');
  await expect(budget.getByLabel('Max tokens per run')).toHaveValue('');
  await expect(budget.getByLabel('Monthly cap (USD)')).toHaveValue('10');
  await expect(budget.getByLabel('When a run reaches its budget')).toHaveText('Ask for approval to go on');
  const saved = await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json();
  expect(saved.config.budget).toEqual({ maxCostPerRunUsd: 0.5, monthlyCapUsd: 10, onExceeded: 'approval' });
});

test('a spent monthly budget shows the banner above every page, and new runs are refused', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await signInAs(page, account);

  // A run of gpt-4o spends something this month (a cap set before it would refuse its model call,
  // whose worst case is over a tiny cap).
  fake.script([{ content: 'Prices are steady this week, with a few discounts on the larger plans.' }]);
  expect(await runToEnd(request, headers, workflow.id)).toBe('completed');

  // A tiny cap, under what was spent.
  await page.goto('/settings/profile?tab=costs');
  const card = page.getByTestId('budget-card');
  await expect(card.getByText(/^Spent this month: \$0\.\d{4} — no cap$/)).toBeVisible();
  await expect(page.getByTestId('budget-banner')).toHaveCount(0);
  await card.getByLabel('Monthly cap (USD)').fill('0.0001');
  await card.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Monthly cap saved');

  // On every page, the dashboard too (read again as the page loads).
  await page.goto('/dashboard');
  const banner = page.getByTestId('budget-banner').getByRole('alert');
  await expect(banner).toHaveText(
    /^Your organization's monthly budget is spent \(\$0\.\d{4} of \$0\.0001\)\. New runs and model calls are refused until next month or until an owner or admin raises it in Settings → Costs\.$/,
  );
  await snapScreens(page, page.getByTestId('budget-banner'), 'budget-banner-exceeded');

  // The server refuses the next run, naming the organization's budget.
  const refused = await request.post(`/api/workflows/${workflow.id}/execute`, {
    headers,
    data: { input: {}, dynamicInstructions: '', parameters: {} },
  });
  expect(refused.status()).toBe(402);
  expect(await refused.json()).toMatchObject({ code: 'budget_exceeded', scope: 'organization' });

  // Its link opens Settings → Costs, where the card says the same in red.
  await banner.getByRole('link', { name: 'Settings → Costs' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?tab=costs$/);
  await expect(card.getByText(/^Spent this month: \$0\.\d{4} of \$0\.0001$/)).toBeVisible();
  await snapScreens(page, card, 'budget-card-exceeded');

  // Raised: the banner goes.
  await card.getByLabel('Monthly cap (USD)').fill('25');
  await card.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Monthly cap saved');
  await expect(page.getByTestId('budget-banner')).toHaveCount(0);
});
