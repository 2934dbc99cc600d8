import { createAccount, expect, screenshotDir, signInAs, snap, snapScreens, test } from './fixtures';

// An agent's Tools tab: each connected tool says when its calls wait for a person (Ask before running).

test('a connected tool asks before writes, and Always is saved and kept', async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  const headers = { authorization: `Bearer ${owner.token}` };
  const tool = await (
    await request.post('/api/tools', {
      headers,
      data: {
        name: 'Orders API',
        category: 'api',
        description: 'Reads orders and issues refunds',
        config: { baseUrl: 'https://orders.example.com' },
      },
    })
  ).json();
  const agent = await (
    await request.post('/api/agents', {
      headers,
      data: { name: 'Support', role: 'Support', goal: 'Answer customers', llmModel: 'gpt-4o' },
    })
  ).json();
  expect(
    (await request.post(`/api/agents/${agent.id}/tools/${tool.id}`, { headers, data: {} })).status(),
  ).toBe(201);

  await signInAs(page, owner);
  await page.goto(`/agents/edit/${agent.id}`);
  await page.getByRole('tab', { name: 'Tools' }).click();
  const row = page.getByTestId('agent-tool-link');
  const select = row.getByLabel('Ask before running');
  await expect(select).toHaveText('Writes');
  await expect(
    page.getByText(
      'A call that needs approval waits for a person in the Inbox; the run holds no worker meanwhile.',
    ),
  ).toBeVisible();
  await snapScreens(page, row, 'agent-tool-approval');

  await select.click();
  await expect(page.getByRole('option', { name: /Calls that change something/ })).toBeVisible();
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await snap(page, `agent-tool-approval-open-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.getByRole('option', { name: 'Always' }).click();
  await expect(select).toHaveText('Always');

  // Kept: a reload shows the saved policy.
  await page.reload();
  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.getByTestId('agent-tool-link').getByLabel('Ask before running')).toHaveText('Always');
});
