import type { Page } from '@playwright/test';
import { expect, expectToast, snapScreens } from './fixtures';
import { signedInOnFakeModel, test } from './fake-model';

async function openMarketplace(page: Page) {
  await page.goto('/templates');
  await expect(page.getByRole('heading', { name: 'Template Marketplace', level: 1 })).toBeVisible();
  await expect(page.getByTestId('workflow-template-card').first()).toBeVisible();
}

test('find Blog Post Pipeline, preview it, use it, then run the workflow it made', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  await signedInOnFakeModel(page, request, fake);
  await openMarketplace(page);

  // The chips, the tabs and the featured strip.
  const chips = page.getByRole('group', { name: 'Categories' });
  for (const chip of [
    'All',
    'Content Marketing',
    'Customer Service',
    'Email Marketing',
    'Business Intelligence',
  ]) {
    await expect(chips.getByRole('button', { name: chip, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: /Workflow Templates/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('tab', { name: /Agent Templates/ })).toBeVisible();
  const featured = page.getByRole('region', { name: 'Featured templates' });
  for (const pick of ['Most Popular', 'Highest Rated', 'Team Favorite']) {
    await expect(featured.getByRole('button', { name: new RegExp(pick) })).toBeVisible();
  }
  await expect(page.getByTestId('seed-templates-alert')).toHaveCount(0);
  await snapScreens(page, page.getByRole('heading', { name: 'Template Marketplace', level: 1 }), 'templates');

  // The sort goes to the server; the grid stays while the new order loads.
  const popular = page.waitForResponse((res) => res.url().includes('/api/templates?sort=popular'));
  await page.getByRole('combobox', { name: 'Sort templates' }).click();
  await page.getByRole('option', { name: 'Most Popular' }).click();
  expect((await popular).ok()).toBe(true);

  // Category, then search.
  await chips.getByRole('button', { name: 'Customer Service', exact: true }).click();
  await expect(chips.getByRole('button', { name: 'Customer Service', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('article', { name: 'Blog Post Pipeline' })).toHaveCount(0);
  await chips.getByRole('button', { name: 'Content Marketing', exact: true }).click();
  const search = page.getByRole('searchbox', { name: 'Search templates' });
  await search.fill('nothing matches this');
  await expect(page.getByText('No templates found')).toBeVisible();
  await search.fill('blog post pipeline');
  const card = page.getByRole('article', { name: 'Blog Post Pipeline' });
  await expect(card).toBeVisible();
  await expect(page.getByTestId('workflow-template-card')).toHaveCount(1);
  await expect(card.getByTestId('template-agent-count')).toHaveText('3 agents');
  await expect(card.getByTestId('template-process-type')).toHaveText('Sequential');
  await expect(card.getByTestId('template-trigger-type')).toHaveText('Manual');
  await expect(card).toContainText('4.5');
  await expect(card.getByTestId('template-usage')).toHaveText(/^[\d,]+ uses?$/);

  // The preview: description, process, trigger, the three agents and the graph.
  await card.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Blog Post Pipeline' });
  await expect(preview).toBeVisible();
  await expect(preview.getByTestId('preview-process-type')).toHaveText('Sequential');
  await expect(preview.getByTestId('preview-trigger-type')).toHaveText('Manual');
  const agents = preview.getByTestId('template-preview-agent');
  await expect(agents).toHaveCount(3);
  await expect(preview.getByTestId('template-preview-agent-name')).toHaveText([
    'Blog Researcher',
    'Blog Writer',
    'Blog Editor',
  ]);
  await expect(agents.first()).toContainText('Goal:');
  const graph = preview.getByTestId('workflow-graph-view');
  await expect(graph.locator('.react-flow__node')).toHaveCount(5);
  await expect(graph.locator('.react-flow__edge')).toHaveCount(4);
  await expect(graph.locator('.react-flow__node').filter({ hasText: 'Blog Writer' })).toBeVisible();
  await snapScreens(page, preview, 'templates-preview');

  // Use Template: a draft '(Copy)' on the workflows page.
  await preview.getByRole('button', { name: 'Use Template' }).click();
  await expectToast(page, 'Workflow Created');
  await expectToast(page, '"Blog Post Pipeline (Copy)" was created from the template with 3 agents.');
  await expect(page).toHaveURL(/\/workflows$/);
  const workflow = page.getByRole('article', { name: 'Blog Post Pipeline (Copy)' });
  await expect(workflow).toBeVisible();
  await expect(workflow.getByTestId('workflow-agent-count')).toHaveText(/3 agents/);
  await expect(workflow.locator('[data-status="draft"]')).toBeVisible();

  // Activate and execute it; each agent answers in turn.
  fake.script([
    { content: 'Research notes: five angles on remote onboarding.' },
    { content: 'Draft: Remote onboarding that sticks.' },
    { content: 'Final post: Remote onboarding that sticks, edited.' },
  ]);
  await workflow.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await workflow.getByRole('button', { name: 'Execute' }).click();
  const execute = page.getByRole('dialog', { name: 'Execute Workflow' });
  await execute.getByLabel('Runtime Instructions').fill('Write about remote onboarding.');
  await execute.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, 'Workflow Started');

  // The run's results: three agent outputs, in order.
  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByRole('article', { name: /^Blog Post Pipeline \(Copy\) execution / });
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });
  await run.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  await expect(details.getByTestId('agent-output')).toHaveCount(3);
  await expect(details.getByTestId('agent-output-name')).toHaveText([
    'Blog Researcher',
    'Blog Writer',
    'Blog Editor',
  ]);
  await expect(details.getByTestId('agent-output-content').last()).toHaveText(
    'Final post: Remote onboarding that sticks, edited.',
  );
  expect(fake.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(3);
});

test('use an agent template, and see the organization’s own templates', async ({ page, request, fake }) => {
  test.setTimeout(60_000);
  const { headers } = await signedInOnFakeModel(page, request, fake);
  await openMarketplace(page);

  await page.getByRole('tab', { name: /Agent Templates/ }).click();
  await expect(page.getByTestId('agent-template-card').first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search templates' }).fill('SEO Blog Writer');
  const card = page.getByRole('article', { name: 'SEO Blog Writer' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('template-model')).toHaveText('gpt-4o');
  await expect(card.getByTestId('template-tag')).toHaveText(['blog', 'seo']);
  await snapScreens(page, card, 'templates-agents');

  // The smaller preview: role, goal, backstory, system prompt and model.
  await card.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'SEO Blog Writer' });
  for (const field of ['Role', 'Goal', 'Backstory', 'System Prompt', 'Model']) {
    await expect(preview.getByText(field, { exact: true })).toBeVisible();
  }
  await expect(preview.getByTestId('preview-model')).toHaveText('gpt-4o');
  await snapScreens(page, preview, 'templates-agent-preview');
  await preview.getByRole('button', { name: 'Use Template' }).click();
  await expectToast(page, 'Agent Created');
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole('article', { name: 'SEO Blog Writer' })).toBeVisible();

  // The organization's own templates: their category gets a chip, a badge, and Team Favorite.
  const agents = await (await request.get('/api/agents', { headers })).json();
  const savedAgent = await request.post(`/api/agents/${agents[0].id}/save-as-template`, {
    headers,
    data: { name: 'Our onboarding writer', category: 'Operations', tags: ['onboarding'] },
  });
  expect(savedAgent.status()).toBe(201);
  const library = await (await request.get('/api/templates', { headers })).json();
  const blog = library.workflows.find((t: { name: string }) => t.name === 'Blog Post Pipeline');
  const made = await request.post(`/api/templates/${blog.id}/create`, {
    headers,
    data: { name: 'Onboarding posts' },
  });
  expect(made.status()).toBe(201);
  const savedWorkflow = await request.post(
    `/api/workflows/${(await made.json()).workflow.id}/save-as-template`,
    {
      headers,
      data: { name: 'Our onboarding pipeline', category: 'Operations' },
    },
  );
  expect(savedWorkflow.status()).toBe(201);

  await openMarketplace(page);
  await expect(
    page.getByRole('region', { name: 'Featured templates' }).getByTestId('featured-teamFavorite'),
  ).toContainText('Our onboarding pipeline');
  await page.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'Operations' }).click();
  const own = page.getByRole('article', { name: 'Our onboarding pipeline' });
  await expect(own.getByTestId('own-template-badge')).toHaveText('Your organization');
  await snapScreens(page, own, 'templates-own');
  await expect(page.getByTestId('workflow-template-card')).toHaveCount(1);
  await page.getByRole('tab', { name: /Agent Templates/ }).click();
  await expect(
    page.getByRole('article', { name: 'Our onboarding writer' }).getByTestId('own-template-badge'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(
    page.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'All' }),
  ).toHaveAttribute('aria-pressed', 'true');
});

test('skeletons while loading, and Load Sample Templates when the library is missing', async ({
  page,
  request,
  fake,
}) => {
  await signedInOnFakeModel(page, request, fake);

  // The library answers slowly and empty: skeletons first, then the seed alert.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/templates?sort=*', async (route) => {
    await held;
    await route.fulfill({ json: { workflows: [], agents: [] } });
  });
  await page.goto('/templates');
  await expect(page.getByTestId('workflow-template-skeleton')).toHaveCount(4);
  await page.getByRole('tab', { name: /Agent Templates/ }).click();
  await expect(page.getByTestId('agent-template-skeleton')).toHaveCount(6);
  release();
  const alert = page.getByTestId('seed-templates-alert');
  await expect(alert).toContainText('The sample workflow and agent templates are not loaded.');
  await expect(page.getByText('No agent templates yet')).toBeVisible();
  await snapScreens(page, alert, 'templates-missing');

  // Seeding reports what it added (nothing: the server already has them all) and the library shows.
  await page.unroute('**/api/templates?sort=*');
  await alert.getByRole('button', { name: 'Load Sample Templates' }).click();
  await expectToast(page, 'Templates Seeded');
  await expectToast(page, 'Every sample template is already in the library.');
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId('agent-template-card').first()).toBeVisible();

  // A failed seed says so.
  await page.route('**/api/templates?sort=*', (route) =>
    route.fulfill({ json: { workflows: [], agents: [] } }),
  );
  await page.route('**/api/templates/seed', (route) =>
    route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }),
  );
  await page.reload();
  await page
    .getByTestId('seed-templates-alert')
    .getByRole('button', { name: 'Load Sample Templates' })
    .click();
  await expectToast(page, 'Seeding Failed');
  await expectToast(page, 'Failed to seed templates. Please try again.');
});

test('a plan limit shows its reason with Upgrade; another failure is a toast', async ({
  page,
  request,
  fake,
}) => {
  await signedInOnFakeModel(page, request, fake);
  await openMarketplace(page);
  await page.getByRole('searchbox', { name: 'Search templates' }).fill('Blog Post Pipeline');
  const card = page.getByRole('article', { name: 'Blog Post Pipeline' });

  const message = 'Your Starter plan includes 5 agents. Upgrade to add more.';
  await page.route('**/api/templates/*/create', (route) =>
    route.fulfill({ status: 402, json: { message, code: 'plan_limit', limit: 'agents', plan: 'starter' } }),
  );
  await card.getByRole('button', { name: 'Use Template' }).click();
  const preview = page.getByRole('dialog', { name: 'Blog Post Pipeline' });
  await expect(preview.getByText('Plan limit reached')).toBeVisible();
  await expect(preview.getByText(message)).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Upgrade' })).toHaveAttribute(
    'href',
    '/subscribe?plan=professional',
  );
  await snapScreens(page, preview, 'templates-plan-limit');

  await page.unroute('**/api/templates/*/create');
  await page.route('**/api/templates/*/create', (route) =>
    route.fulfill({ status: 404, json: { message: 'Template not found' } }),
  );
  await preview.getByRole('button', { name: 'Use Template' }).click();
  // The preview stays open (a modal dialog hides the notifications region from the accessibility
  // tree, so the toast is found by its element).
  const toast = page.locator('[data-slot="toast"]');
  await expect(toast).toContainText('Creation Failed');
  await expect(toast).toContainText('Template not found');
  await expect(preview.getByText('Plan limit reached')).toHaveCount(0);
  await expect(page).toHaveURL(/\/templates$/);
});
