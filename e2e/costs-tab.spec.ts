import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signInAs, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';
import { AGENT, createAgentWorkflow, setUpOneAgentWorkflow } from './one-agent-workflow';

/** A spend that is not nothing, as the screens write it: '$0.0042', '< $0.0001', '$1.25'. */
const SOME_COST = /^(< )?\$(?!0\.00$)\d[\d,]*\.\d{2,4}$/;

/** Starts a run through the API and waits until it has completed. */
async function runToCompletion(
  request: APIRequestContext,
  headers: Record<string, string>,
  workflowId: string,
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
    .toBe('completed');
}

const today = (page: Page) => page.evaluate(() => new Date().toLocaleDateString('en-CA'));

test('Analytics → Costs shows what a run spent, by day and by agent, and downloads it as CSV', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  // gpt-4o has a built-in price and the fake model reports its usage, so the run costs something.
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  fake.script([{ content: 'Prices are steady this week.' }]);
  await runToCompletion(request, headers, workflow.id);

  const costsUrls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/usage/costs')) costsUrls.push(req.url());
  });
  await signInAs(page, account);
  await page.goto('/analytics');
  await page.getByRole('tab', { name: 'Costs' }).click();
  const costs = page.getByRole('tabpanel', { name: 'Costs' });

  // The totals of the range (the page's default, the last 7 days).
  const value = (card: string) => costs.getByTestId(card).getByTestId('stat-value');
  await expect(value('metric-spend')).toHaveText(SOME_COST);
  await expect(value('metric-model-calls')).toHaveText('1');
  await expect(value('metric-tokens')).toHaveText(/^[1-9][\d,]*$/);
  await expect(costs.getByTestId('unpriced-note')).toHaveCount(0);
  // Sent with the viewer's time zone, grouped by day.
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(costsUrls.some((url) => url.includes(`tz=${encodeURIComponent(timeZone)}`))).toBe(true);
  expect(costsUrls.every((url) => url.includes('groupBy=day'))).toBe(true);

  // The chart: a bar for each of the seven days, today's with the run's spend.
  const chart = costs.getByRole('list', { name: 'Spend by day' });
  const bars = chart.getByTestId('cost-bar');
  await expect(bars).toHaveCount(7);
  await expect(bars.last()).toHaveAttribute('data-date', await today(page));
  await expect(bars.last()).toHaveAttribute('aria-label', /: (< )?\$\d[\d.,]*, 1 call$/);
  await expect(bars.first()).toHaveAttribute('aria-label', /: no model calls$/);
  await snapScreens(page, costs, 'costs-tab', { fullPage: true });

  // Grouped by agent: the agent's row.
  await costs.getByRole('combobox', { name: 'Group by' }).click();
  await page.getByRole('option', { name: 'Agent' }).click();
  const table = costs.getByRole('table', { name: 'Spend by agent' });
  const row = table.getByTestId('cost-row').filter({ hasText: AGENT.name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText(SOME_COST);
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');
  await snapScreens(page, table, 'costs-by-agent');

  // Download CSV: the agent's line under the header.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    costs.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^crewline-costs-\\d{4}-\\d{2}-\\d{2}-${await today(page)}-agent\\.csv$`),
  );
  const lines = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(lines[0]).toBe(
    'key,label,cost_usd,calls,input_tokens,cached_input_tokens,output_tokens,unpriced_calls',
  );
  const agentLine = lines.find((line) => line.includes(`,${AGENT.name},`));
  expect(agentLine).toMatch(new RegExp(`^[^,]+,${AGENT.name},0\\.\\d+,1,[1-9]\\d*,\\d+,[1-9]\\d*,0$`));

  // Another range: a bar for each of its 90 days, the run's still on today's.
  await page.getByRole('combobox', { name: 'Time range' }).click();
  await page.getByRole('option', { name: 'Last 90 days' }).click();
  await expect(bars).toHaveCount(90);
  await expect(bars.last()).toHaveAttribute('aria-label', /, 1 call$/);
  await expect(value('metric-model-calls')).toHaveText('1');
  await snapScreens(page, chart, 'costs-90-days');
});

test('calls of a model without a price are counted apart, and the note leads to Settings → Costs', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  // A model the price table does not know (a local or custom one).
  const agentRes = await request.post('/api/agents', {
    headers,
    data: {
      name: 'Local Drafter',
      role: 'Drafter',
      goal: 'Draft notes',
      llmProvider: 'openai',
      llmModel: 'e2e-local-model',
    },
  });
  expect(agentRes.status()).toBe(201);
  const agent = await agentRes.json();
  const workflowId = await createAgentWorkflow(
    request,
    headers,
    { id: agent.id, name: 'Local Drafter', role: 'Drafter' },
    { name: uniqueName('Local draft ') },
  );
  fake.script([{ content: 'A draft.' }]);
  await runToCompletion(request, headers, workflowId);

  await signInAs(page, account);
  await page.goto('/analytics');
  await page.getByRole('tab', { name: 'Costs' }).click();
  const costs = page.getByRole('tabpanel', { name: 'Costs' });
  const note = costs.getByTestId('unpriced-note');
  await expect(note).toHaveText(
    '1 call of models without a price (e2e-local-model): their cost is unknown. Set a price in Settings → Costs.',
  );
  // Its cost is unknown, never $0.00.
  await expect(costs.getByTestId('metric-spend').getByTestId('stat-value')).toHaveText('unknown');
  await expect(costs.getByTestId('metric-model-calls').getByTestId('stat-value')).toHaveText('1');
  await snapScreens(page, note, 'costs-unpriced');

  await note.getByRole('link', { name: 'Settings → Costs' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?tab=costs$/);
  await expect(page.getByRole('tab', { name: 'Costs' })).toHaveAttribute('aria-selected', 'true');
});
