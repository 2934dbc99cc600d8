import { createAccount, expect, snapScreens, signInAs, test } from './fixtures';

// Each node kind's canvas node and Properties panel come from the builder's node-kind registry
// (apps/web/src/features/workflows/builder/node-kinds/).
test('each node kind shows its own canvas node and Properties panel', async ({ page, request }) => {
  const account = await createAccount(request);
  const res = await request.post('/api/agents', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { name: 'Researcher', role: 'Finds the facts', goal: 'Help' },
  });
  expect(res.status()).toBe(201);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/workflows/new');
  await page.getByRole('button', { name: 'Add Researcher' }).click();

  const panel = page.getByRole('tabpanel', { name: 'Properties' });
  const agentNode = page.locator('.react-flow__node').filter({ hasText: 'Researcher' });
  await agentNode.click();
  await expect(panel.getByText('Agent node')).toBeVisible();
  await expect(panel.getByText('Finds the facts')).toBeVisible();
  await expect(panel.getByLabel('Label')).toHaveValue('Researcher');
  await expect(panel.getByRole('button', { name: 'Delete Node' })).toBeVisible();
  // The agent's settings reach its node on the canvas.
  await panel.getByLabel('Model').fill('gpt-4o-mini');
  await expect(agentNode.getByText('gpt-4o-mini')).toBeVisible();
  await expect(agentNode.getByText('Database')).toBeVisible();
  await expect(panel.getByText('Output Destination')).toBeVisible();
  await snapScreens(page, panel, 'builder-agent-properties');

  for (const [id, title] of [
    ['start', 'Start node'],
    ['end', 'End node'],
  ] as const) {
    await page.getByTestId(`node-${id}`).click();
    await expect(panel.getByText(title)).toBeVisible();
    // Start and End always stay, and have no agent settings.
    await expect(panel.getByRole('button', { name: 'Delete Node' })).toHaveCount(0);
    await expect(panel.getByLabel('Model')).toHaveCount(0);
    await expect(panel.getByLabel('Label')).toHaveValue(id === 'start' ? 'Start' : 'End');
  }
  await snapScreens(page, panel, 'builder-end-properties');
});
