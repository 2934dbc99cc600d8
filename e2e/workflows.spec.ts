import { readFileSync } from 'node:fs';
import { createAccount, expect, expectToast, signInAs, test } from './fixtures';
import { connect, createAgentsNamed, layOut } from './canvas';

test('build, save, find, activate, reopen, validate, export, import and delete a workflow', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  await createAgentsNamed(request, headers, ['Researcher', 'Writer']);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1600, height: 1000 });

  // Build a two-agent workflow from scratch.
  await page.goto('/workflows/new');
  await expect(page.getByText('Create New Workflow').first()).toBeVisible();
  await page.getByLabel('Workflow name').fill('Weekly digest');
  await page.getByRole('button', { name: 'Add Researcher' }).click();
  await page.getByRole('button', { name: 'Add Writer' }).click();
  const canvas = page.locator('.react-flow');
  const startNode = page.getByTestId('node-start');
  const endNode = page.getByTestId('node-end');
  const researcher = canvas.locator('.react-flow__node').filter({ hasText: 'Researcher' });
  const writer = canvas.locator('.react-flow__node').filter({ hasText: 'Writer' });
  // Lay the agents out below Start and End (they arrive at random places), then connect them.
  const startBox = (await startNode.boundingBox())!;
  const endBox = (await endNode.boundingBox())!;
  await layOut(page, [
    [researcher, startBox.x - 60, startBox.y + 260],
    [writer, endBox.x + 40, endBox.y + 260],
  ]);
  const edges = canvas.locator('.react-flow__edge');
  await connect(page, startNode, researcher);
  await expect(edges).toHaveCount(1);
  await connect(page, researcher, writer);
  await expect(edges).toHaveCount(2);
  await connect(page, writer, endNode);
  await expect(edges).toHaveCount(3);
  await page.getByRole('button', { name: 'Fit View' }).click();

  // Set a property of the second agent.
  await writer.click();
  await page.getByLabel('Label').fill('Digest writer');
  await page.getByLabel('Output Format').click();
  await page.getByRole('option', { name: 'Markdown' }).click();

  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expectToast(page, 'Workflow Created');
  await expect(page).toHaveURL(/\/workflows$/);

  // Find it on the list with status draft and 2 agents, and filter.
  const card = page.getByRole('article', { name: 'Weekly digest' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('workflow-agent-count')).toHaveText(/2 agents/);
  await expect(card.locator('[data-status="draft"]')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search workflows' }).fill('WEEKLY');
  await expect(card).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search workflows' }).fill('nothing like this');
  await expect(page.getByText('No workflows found')).toBeVisible();
  await page.getByRole('button', { name: 'Reset Filters' }).click();

  await card.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await expect(card.locator('[data-status="active"]')).toBeVisible();

  // Reopen it: positions and properties are preserved.
  const saved = (await (await request.get('/api/workflows', { headers })).json())[0];
  const savedWriter = saved.nodes.find((n: { data: { label?: string } }) => n.data.label === 'Digest writer');
  expect(savedWriter.data.outputFormat).toBe('markdown');
  await card.getByRole('button', { name: 'Workflow actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit Workflow' }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/edit/${saved.id}`));
  await expect(page.getByLabel('Workflow name')).toHaveValue('Weekly digest');
  const reopened = (await (await request.get(`/api/workflows/${saved.id}`, { headers })).json()).nodes;
  expect(reopened.map((n: { position: object }) => n.position)).toEqual(
    saved.nodes.map((n: { position: object }) => n.position),
  );
  await expect(canvas.locator('.react-flow__node')).toHaveCount(4);

  // An unconnected node gives a warning on Validate.
  await page.getByRole('tab', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Add Researcher' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('region', { name: 'Validation results' })).toContainText('is not connected');

  // Export, then import the export as a new workflow.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('Weekly digest.json');
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(exported.nodes.length).toBeGreaterThanOrEqual(4);
  await page.locator('input[type=file]').setInputFiles(await download.path());
  // The added Researcher is not saved: the builder asks before opening the imported workflow.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/workflows/edit/${saved.id}`));
  await expect(page).toHaveURL(/\/workflows\/edit\//);
  const all = await (await request.get('/api/workflows', { headers })).json();
  expect(all).toHaveLength(2);

  // Delete the original.
  await page.goto('/workflows');
  const original = page
    .getByRole('article', { name: 'Weekly digest' })
    .filter({ has: page.locator('[data-status="active"]') });
  await original.getByRole('button', { name: 'Workflow actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete Workflow' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Workflow' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete "Weekly digest"? This action cannot be undone and will remove all associated executions.',
  );
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Workflow Deleted');
  expect(await (await request.get('/api/workflows', { headers })).json()).toHaveLength(1);
});
