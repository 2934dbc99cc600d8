import { expect, expectToast, signInAs, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

test('pause a workflow from its card, then resume it', async ({ page, request }) => {
  const { account, headers, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
    'active',
  );
  await signInAs(page, account);
  await page.goto('/workflows');
  const card = page.getByRole('article', { name: workflow.name });
  const status = card.getByTestId('workflow-status');
  await expect(status).toHaveText('Active');
  await expect(card.getByRole('button', { name: 'Execute' })).toBeVisible();

  // Pause from the menu: the badge says so, and Execute (which the server would refuse) gives way to Resume.
  await card.getByRole('button', { name: 'Workflow actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Resume' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Pause' }).click();
  await expectToast(page, 'Workflow Paused');
  await expect(status).toHaveText('Paused');
  await expect(card.getByRole('button', { name: 'Execute' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  const saved = await request.get(`/api/workflows/${workflow.id}`, { headers });
  expect((await saved.json()).status).toBe('paused');

  // Resume from the menu: active again, with Execute back.
  await card.getByRole('button', { name: 'Workflow actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Pause' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Resume' }).click();
  await expectToast(page, 'Workflow Resumed');
  await expect(status).toHaveText('Active');
  await expect(card.getByRole('button', { name: 'Execute' })).toBeVisible();
  expect((await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json()).status).toBe(
    'active',
  );
});

test('a paused every-minute schedule starts nothing; resumed, it runs at the next minute', async ({
  page,
  request,
}) => {
  test.setTimeout(200_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
    'active',
  );
  const scheduled = await request.put(`/api/workflows/${workflow.id}`, {
    headers,
    data: { triggerType: 'schedule', triggerConfig: { cron: '* * * * *' } },
  });
  expect(scheduled.status()).toBe(200);
  const runs = async () => {
    const res = await request.get(`/api/executions?workflowId=${workflow.id}`, { headers });
    expect(res.status()).toBe(200);
    return ((await res.json()) as unknown[]).length;
  };

  await signInAs(page, account);
  await page.goto('/workflows');
  const card = page.getByRole('article', { name: workflow.name });
  await card.getByRole('button', { name: 'Workflow actions' }).click();
  await page.getByRole('menuitem', { name: 'Pause' }).click();
  await expectToast(page, 'Workflow Paused');
  // A tick may have fired between scheduling and pausing: what counts is that none fires after.
  const before = await runs();

  // Past the next minute's tick and a few of the scheduler's one-second polls: still nothing.
  const nextTick = Math.ceil((Date.now() + 1_000) / 60_000) * 60_000;
  await page.waitForTimeout(nextTick - Date.now() + 5_000);
  expect(await runs()).toBe(before);
  await page.goto('/workflows?tab=executions');
  await expect(page.getByRole('article', { name: `${workflow.name} execution` })).toHaveCount(before);

  await page.goto('/workflows');
  await card.getByRole('button', { name: 'Workflow actions' }).click();
  await page.getByRole('menuitem', { name: 'Resume' }).click();
  await expectToast(page, 'Workflow Resumed');
  await expect.poll(runs, { timeout: 75_000, intervals: [1_000] }).toBe(before + 1);
});
