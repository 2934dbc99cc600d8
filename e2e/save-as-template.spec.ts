import path from 'node:path';
import {
  createAccount,
  expect,
  expectToast,
  HIDE_SITE_HEADER,
  screenshotDir,
  signInAs,
  snapScreens,
  snapSection,
  test,
  uniqueName,
} from './fixtures';
import { connect, layOut } from './canvas';

test('save a workflow and an agent as templates, find the workflow template and use it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const agentRes = await request.post('/api/agents', {
    headers,
    data: { name: 'Trend Scout', role: 'Trend researcher', goal: 'Find what readers ask about this week' },
  });
  expect(agentRes.status()).toBe(201);
  const agent = await agentRes.json();
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });

  // A new workflow has nothing to make a template of yet.
  const workflowName = uniqueName('Trend digest ');
  await page.goto('/workflows/new');
  await expect(page.getByText('Create New Workflow').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save as Template' })).toHaveCount(0);

  // Build Start → Trend Scout → End and save it.
  await page.getByLabel('Workflow name').fill(workflowName);
  await page.getByRole('button', { name: 'Add Trend Scout' }).click();
  const canvas = page.locator('.react-flow');
  const startNode = page.getByTestId('node-start');
  const endNode = page.getByTestId('node-end');
  const scout = canvas.locator('.react-flow__node').filter({ hasText: 'Trend Scout' });
  const startBox = (await startNode.boundingBox())!;
  const endBox = (await endNode.boundingBox())!;
  await layOut(page, [[scout, (startBox.x + endBox.x + endBox.width) / 2, startBox.y + 240]]);
  const edges = canvas.locator('.react-flow__edge');
  await connect(page, startNode, scout);
  await expect(edges).toHaveCount(1);
  await connect(page, scout, endNode);
  await expect(edges).toHaveCount(2);
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expectToast(page, 'Workflow Created');
  await expect(page).toHaveURL(/\/workflows$/);

  // Reopen it: Save as Template starts from the saved workflow.
  const saved = (
    (await (await request.get('/api/workflows', { headers })).json()) as { id: string; name: string }[]
  ).find((w) => w.name === workflowName)!;
  await page.goto(`/workflows/edit/${saved.id}`);
  await expect(page.getByLabel('Workflow name')).toHaveValue(workflowName);
  await snapScreens(
    page,
    page.getByRole('button', { name: 'Save as Template' }),
    'builder-save-template-button',
  );
  await page.getByRole('button', { name: 'Save as Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save as Template' });
  await expect(dialog.getByLabel('Name')).toHaveValue(workflowName);
  await expect(dialog.getByText(/unsaved changes/)).toHaveCount(0);

  // Name and category are required; the errors show under their fields.
  await dialog.getByLabel('Name').fill('');
  await dialog.getByRole('button', { name: 'Save Template' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Category is required')).toBeVisible();

  const templateName = uniqueName('Weekly trends ');
  await dialog.getByLabel('Name').fill(templateName);
  await dialog.getByLabel('Description').fill('Researches what readers ask about and sums it up.');
  // A suggested category is one click; a custom one is typed in.
  await dialog.getByRole('button', { name: 'Content Marketing' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Category', exact: true })).toHaveValue(
    'Content Marketing',
  );
  await expect(dialog.getByRole('button', { name: 'Content Marketing' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await dialog.getByRole('textbox', { name: 'Category', exact: true }).fill('Research Ops');
  await expect(dialog.getByRole('button', { name: 'Content Marketing' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await dialog.getByLabel('Tags').fill('research, weekly, Research');
  await expect(dialog.getByText('Category is required')).toHaveCount(0);
  await snapScreens(page, dialog, 'save-template-dialog');

  await dialog.getByRole('button', { name: 'Save Template' }).click();
  await expectToast(page, 'Template Saved');
  await expect(
    page.getByText(`"${templateName}" is now in Template Marketplace for your organization.`).first(),
  ).toBeVisible();
  await expect(dialog).toBeHidden();

  // The API has it: the organization's own, with the agent's definition and the tags once each.
  const list = await (await request.get('/api/templates', { headers })).json();
  const template = list.workflows.find((t: { name: string }) => t.name === templateName);
  expect(template).toMatchObject({
    isOwn: true,
    isPublic: false,
    category: 'Research Ops',
    tags: ['research', 'weekly'],
    description: 'Researches what readers ask about and sums it up.',
  });
  expect(template.agents.map((a: { name: string }) => a.name)).toEqual(['Trend Scout']);

  // With unsaved changes, the dialog says the template is made from the last saved version.
  await page.getByLabel('Workflow name').fill(`${workflowName} v2`);
  await page.getByRole('button', { name: 'Save as Template' }).click();
  await expect(dialog.getByText(/unsaved changes.*last saved version/)).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue(workflowName);
  await snapScreens(page, dialog, 'save-template-dialog-unsaved');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Template Marketplace lists it as the organization's own; Use Template makes '{name} (Copy)'.
  await page.goto('/templates');
  await page.getByRole('searchbox', { name: 'Search templates' }).fill(templateName);
  const card = page.getByRole('article', { name: templateName });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('own-template-badge')).toBeVisible();
  await expect(card.getByTestId('template-category')).toHaveText('Research Ops');
  await card.getByRole('button', { name: 'Use Template' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole('article', { name: `${templateName} (Copy)` })).toBeVisible();

  // An agent too, from its edit page.
  await page.goto(`/agents/edit/${agent.id}`);
  await expect(page.getByRole('heading', { name: 'Trend Scout' })).toBeVisible();
  await snapScreens(
    page,
    page.getByRole('button', { name: 'Save as Template' }),
    'agent-save-template-button',
  );
  await page.getByRole('button', { name: 'Save as Template' }).click();
  await expect(dialog.getByLabel('Name')).toHaveValue('Trend Scout');
  await dialog.getByRole('button', { name: 'Customer Service' }).click();
  await dialog.getByRole('button', { name: 'Save Template' }).click();
  await expectToast(page, 'Template Saved');
  const after = await (await request.get('/api/templates', { headers })).json();
  expect(
    after.agents.find((t: { name: string; isOwn: boolean }) => t.name === 'Trend Scout' && t.isOwn),
  ).toMatchObject({
    category: 'Customer Service',
    role: 'Trend researcher',
  });
});

test('the landing page shows the shipped library, skeletons while loading and the static cards if it fails', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // Held until the skeletons were seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/templates/library', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const section = page.locator('section#templates');
  const list = section.getByRole('list', { name: 'Templates' });
  await section.scrollIntoViewIfNeeded();
  await expect(list).toHaveAttribute('aria-busy', 'true');
  await expect(section.getByRole('status')).toHaveText('Loading templates');
  if (screenshotDir)
    await section.screenshot({
      path: path.join(screenshotDir, 'landing-templates-loading.png'),
      style: HIDE_SITE_HEADER,
    });
  release();

  // The six most used workflows of the library, with their category, flow type, rating and uses.
  const cards = section.getByTestId('landing-template-card');
  await expect(cards).toHaveCount(6);
  const blog = section.getByRole('article', { name: 'Blog Post Pipeline' });
  await expect(blog).toBeVisible();
  await expect(blog).toContainText('Content Marketing');
  await expect(blog).toContainText(/Sequential|Hierarchical|Parallel/);
  await expect(blog).toContainText('3 agents');
  await expect(blog).toContainText('4.5');
  await expect(blog.getByText(/^\d+(\.\d)?[kM]? uses?$/)).toBeVisible();
  await snapSection(page, section, 'landing-templates');

  // Use Template asks for an account, naming the template; Browse All Templates asks to sign in
  // first, then comes back (e2e/landing.spec.ts follows both through).
  await expect(blog.getByRole('link', { name: 'Use Template' })).toHaveAttribute(
    'href',
    /^\/signup\?template=[0-9a-f-]{36}$/,
  );
  await blog.getByRole('link', { name: 'Use Template' }).click();
  await expect(page).toHaveURL(/\/signup\?template=[0-9a-f-]{36}$/);
  await page.goto('/');
  await page.locator('section#templates').getByRole('link', { name: 'Browse All Templates' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Ftemplates$/);

  // The library cannot be read: the static previews.
  await page.unroute('**/api/templates/library');
  await page.route('**/api/templates/library', (route) => route.fulfill({ status: 500, body: 'down' }));
  await page.goto('/');
  await expect(
    page.locator('section#templates').getByRole('article', { name: 'Weekly KPI Digest' }),
  ).toBeVisible();
  await expect(page.locator('section#templates').getByTestId('landing-template-card')).toHaveCount(6);
});
