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
