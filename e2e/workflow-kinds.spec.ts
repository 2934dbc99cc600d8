import type { APIRequestContext, Locator, Page } from '@playwright/test';

import { connectHandle, createAgentsNamed } from './canvas';
import { createAccount, expect, screenshotDir, signInAs, snap, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

/** The builder in each scheme at 1440×900 and 390×844, as `{name}-{scheme}-{size}.png`. */
async function shoot(page: Page, name: string, before?: () => Promise<void>) {
  if (!screenshotDir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'Fit View' }).click();
      await before?.();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${screenshotDir}/${name}-${scheme}-${size}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

// Issue 35, Builder: the palette adds every kind, a condition's branches are handles by label, and a
// path from a branch is saved with the branch it leaves from.
test('builds a triage workflow from the palette and saves each path with its branch', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  await createAgentsNamed(request, headers, ['Classifier']);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/workflows/new');
  await page.getByLabel('Workflow name').fill('Support triage');

  await page.getByRole('button', { name: 'Add Classifier' }).click();
  await page.getByRole('tab', { name: 'Steps' }).click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('button', { name: 'Add Condition' })).toContainText(
    'Chooses a path: the first branch whose expression is true, else the else path.',
  );
  for (const kind of ['Condition', 'Transform', 'Merge', 'Note'])
    await steps.getByRole('button', { name: `Add ${kind}` }).click();
  // Each lands in the middle of the canvas, beside the others.
  await page.getByRole('button', { name: 'Fit View' }).click();

  const canvas = page.locator('.react-flow');
  const nodeOf = (type: string) => canvas.locator(`.react-flow__node-${type}`);
  const condition = nodeOf('condition');
  const panel = page.getByRole('tabpanel', { name: 'Properties' });

  // The condition's panel: its label, a second branch (a second handle on the node), the expressions.
  await condition.click();
  await panel.getByLabel('Label', { exact: true }).fill('Route');
  await panel.getByLabel('Branch label').fill('Billing');
  await panel.getByLabel('When').fill('input.kind == "billing"');
  await panel.getByRole('button', { name: 'Add branch' }).click();
  await panel.getByLabel('Branch label').nth(1).fill('Sales');
  await panel.getByLabel('When').nth(1).fill('input.kind == "sales"');
  await expect(condition.locator('[data-handleid]')).toHaveCount(3);
  await expect(condition.getByText('Billing', { exact: true })).toBeVisible();
  await expect(condition.getByText('Sales', { exact: true })).toBeVisible();

  await nodeOf('transform').click();
  await panel.getByLabel('Name', { exact: true }).fill('priority');
  await panel.getByLabel('Value', { exact: true }).fill('"high"');
  await nodeOf('merge').click();
  await panel.getByLabel('Label', { exact: true }).fill('Join');
  await nodeOf('note').click();
  await panel.getByLabel('Text').fill('Billing questions come first; everything else waits for the team.');

  // Lay it out, then wire it: Start → Classifier → Route; Billing → Transform → Join; Sales and else → Join → End.
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();
  const agent = nodeOf('agent');
  const join = nodeOf('merge');
  await connectHandle(page, page.getByTestId('node-start').locator('.react-flow__handle.source'), agent);
  await connectHandle(page, agent.locator('.react-flow__handle.source'), condition);
  await connectHandle(page, condition.locator('[data-handleid="branch-1"]'), nodeOf('transform'));
  await connectHandle(page, nodeOf('transform').locator('.react-flow__handle.source'), join);
  await connectHandle(page, condition.locator('[data-handleid="branch-2"]'), join);
  await connectHandle(page, condition.locator('[data-handleid="else"]'), join);
  await connectHandle(page, join.locator('.react-flow__handle.source'), page.getByTestId('node-end'));
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(7);
  await page.getByRole('button', { name: 'Tidy up' }).click();

  await page.getByRole('button', { name: /Validate/ }).click();
  await expect(page.getByRole('region', { name: 'Validation results' })).toContainText('Validation Passed');
  await page.getByRole('button', { name: 'Close validation results' }).click();

  await condition.click();
  await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 10_000 });
  await shoot(page, 'builder-kinds');
  const zoomIn = async () => {
    for (let i = 0; i < 3; i++) await page.locator('.react-flow__controls-zoomin').click();
  };
  await shoot(page, 'builder-kinds-zoom', zoomIn);

  // The agent step's output schema, as fields.
  await page.getByRole('button', { name: 'Fit View' }).click();
  await agent.click();
  await panel.getByRole('button', { name: 'Add field' }).click();
  await panel.getByLabel('Field name').fill('category');
  await panel.getByLabel('Allowed values').fill('billing, sales, other');
  await panel.getByLabel('Field description').fill('Which team answers');
  await shoot(page, 'builder-kinds-schema', async () => {
    await panel.getByRole('region', { name: 'Output schema' }).scrollIntoViewIfNeeded();
  });
  await page.getByRole('tab', { name: 'Steps' }).click();
  await shoot(page, 'builder-kinds-palette', async () => {
    await steps.scrollIntoViewIfNeeded();
  });

  await page.getByRole('button', { name: /Save Draft/ }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  const list = await request.get('/api/workflows', { headers });
  const saved = (
    (await list.json()) as {
      name: string;
      nodes: { id: string; type: string; data: Record<string, unknown> }[];
      edges: { source: string; target: string; sourceHandle?: string | null }[];
    }[]
  ).find((w) => w.name === 'Support triage')!;
  const route = saved.nodes.find((n) => n.type === 'condition')!;
  expect(route.data).toMatchObject({
    label: 'Route',
    branches: [
      { id: 'branch-1', label: 'Billing', when: 'input.kind == "billing"' },
      { id: 'branch-2', label: 'Sales', when: 'input.kind == "sales"' },
    ],
  });
  const joinId = saved.nodes.find((n) => n.type === 'merge')!.id;
  const transformId = saved.nodes.find((n) => n.type === 'transform')!.id;
  expect(
    saved.edges
      .filter((e) => e.source === route.id)
      .map((e) => [e.sourceHandle, e.target])
      .sort(),
  ).toEqual(
    [
      ['branch-1', transformId],
      ['branch-2', joinId],
      ['else', joinId],
    ].sort(),
  );
  expect(saved.nodes.find((n) => n.type === 'agent')?.data.outputSchema).toEqual({
    type: 'object',
    properties: {
      category: { type: 'string', enum: ['billing', 'sales', 'other'], description: 'Which team answers' },
    },
    required: ['category'],
    additionalProperties: false,
  });
  expect(saved.nodes.find((n) => n.type === 'note')?.data.text).toBe(
    'Billing questions come first; everything else waits for the team.',
  );
});

/** An agent on the organization's OpenAI connection (the fake model, in these tests). */
async function createModelAgent(request: APIRequestContext, headers: Record<string, string>, name: string) {
  const res = await request.post('/api/agents', {
    headers,
    data: { name, role: `${name} role`, goal: 'Help customers', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(res.status()).toBe(201);
}

// Issue 35, Done-when: build the triage workflow from the palette, run it, see the taken path and the
// skipped nodes, open the condition's step and see its expression values.
test('the triage workflow built from the palette runs: the path taken, the skipped agent, the condition’s values', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(180_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  for (const name of ['Classifier', 'Billing desk', 'General desk'])
    await createModelAgent(request, headers, name);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/workflows/new');
  const workflowName = uniqueName('Support triage ');
  await page.getByLabel('Workflow name').fill(workflowName);

  for (const name of ['Classifier', 'Billing desk', 'General desk'])
    await page.getByRole('button', { name: `Add ${name}` }).click();
  await page.getByRole('tab', { name: 'Steps' }).click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await steps.getByRole('button', { name: 'Add Condition' }).click();
  await steps.getByRole('button', { name: 'Add Merge' }).click();

  const canvas = page.locator('.react-flow');
  const nodeOf = (type: string) => canvas.locator(`.react-flow__node-${type}`);
  const agentNamed = (name: string) => nodeOf('agent').filter({ hasText: name });
  const classifier = agentNamed('Classifier');
  const billingDesk = agentNamed('Billing desk');
  const generalDesk = agentNamed('General desk');
  const condition = nodeOf('condition');
  const join = nodeOf('merge');
  const start = page.getByTestId('node-start');
  const end = page.getByTestId('node-end');
  const panel = page.getByRole('tabpanel', { name: 'Properties' });

  // Wire it: Start → Classifier → Route; Billing → Billing desk, else → General desk; both → Join → End.
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();
  await connectHandle(page, start.locator('.react-flow__handle.source'), classifier);
  await connectHandle(page, classifier.locator('.react-flow__handle.source'), condition);
  await connectHandle(page, condition.locator('[data-handleid="branch-1"]'), billingDesk);
  await connectHandle(page, condition.locator('[data-handleid="else"]'), generalDesk);
  await connectHandle(page, billingDesk.locator('.react-flow__handle.source'), join);
  await connectHandle(page, generalDesk.locator('.react-flow__handle.source'), join);
  await connectHandle(page, join.locator('.react-flow__handle.source'), end);
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(7);
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();

  // The classifier answers with a category, through the schema editor.
  await classifier.click();
  await panel.getByRole('button', { name: 'Add field' }).click();
  await panel.getByLabel('Field name').fill('category');
  await panel.getByLabel('Allowed values').fill('billing, other');
  await panel.getByLabel('Field description').fill('Which desk answers');

  // The condition's branch reads it: the path is picked from the completions, as a user would.
  await condition.click();
  await panel.getByLabel('Label', { exact: true }).fill('Route');
  await panel.getByLabel('Branch label').fill('Billing');
  const when = panel.getByRole('combobox', { name: 'When' });
  await when.pressSequentially('nodes');
  const paths = panel.getByRole('listbox', { name: 'Paths for When' });
  const category = paths.getByRole('option', { name: /\.data\.category/ });
  await expect(category).toContainText('Classifier');
  const index = (await paths.getByRole('option').allTextContents()).findIndex((text) =>
    /^nodes\S*\.data\.category/.test(text),
  );
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(category).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await when.pressSequentially(' == "billing"');
  const classifierId = (await classifier.getAttribute('data-id'))!;
  await expect(when).toHaveValue(`nodes["${classifierId}"].data.category == "billing"`);
  await expect(panel.getByTestId('expression-error')).toHaveCount(0);
  await expect(condition.getByText('Billing', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: /Validate/ }).click();
  await expect(page.getByRole('region', { name: 'Validation results' })).toContainText('Validation Passed');
  await page.getByRole('button', { name: 'Close validation results' }).click();

  // Run: a draft is saved and activated first, then Execute, with a message the classifier files
  // under billing (the fake model picks the enum value the prompt names).
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: 'This workflow is not active.' })
    .getByRole('button', { name: 'Activate and run' })
    .click();
  const execute = page.getByRole('dialog', { name: 'Execute Workflow' });
  await expect(page).toHaveURL(/\/workflows\/edit\/[0-9a-f-]{36}$/);
  await execute.getByLabel('Runtime Instructions').fill('A customer was charged twice: a billing question.');
  await execute.getByRole('button', { name: 'Execute' }).click();
  await expect(execute).toHaveCount(0);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-run-status', 'completed', {
    timeout: 30_000,
  });
  const workflowId = page.url().split('/').pop()!;
  const saved = await (await request.get(`/api/workflows/${workflowId}`, { headers })).json();
  expect([saved.name, saved.status]).toEqual([workflowName, 'active']);

  // The canvas: the path taken stands out, the general desk is greyed and marked Skipped.
  const idOf = async (node: Locator) => (await node.getAttribute('data-id'))!;
  const [routeId, billingId, generalId, joinId] = await Promise.all(
    [condition, billingDesk, generalDesk, join].map(idOf),
  );
  const edge = (source: string, target: string) =>
    canvas.getByRole('group', { name: `Edge from ${source} to ${target}` });
  for (const [source, target] of [
    ['start', classifierId],
    [classifierId, routeId],
    [routeId, billingId],
    [billingId, joinId],
    [joinId, 'end'],
  ])
    await expect(edge(source, target)).toHaveClass(/run-path-taken/);
  for (const [source, target] of [
    [routeId, generalId],
    [generalId, joinId],
  ]) {
    await expect(edge(source, target)).toHaveClass(/run-path-not-taken/);
    await expect(edge(source, target)).toHaveCSS('opacity', '0.35');
  }
  // The path taken is drawn in its own colour, unlike the edges the run did not reach or take.
  const strokeOf = (line: Locator) =>
    line.locator('.react-flow__edge-path').evaluate((path) => getComputedStyle(path).stroke);
  const takenStroke = await strokeOf(edge(routeId, billingId));
  expect(takenStroke).not.toBe(await strokeOf(edge(routeId, generalId)));
  expect(await strokeOf(edge(joinId, 'end'))).toBe(takenStroke);
  for (const node of [classifier, condition, billingDesk, join])
    await expect(node.getByText(/^Done/)).toBeVisible();
  await expect(generalDesk.getByText('Skipped', { exact: true })).toBeVisible();
  await expect(generalDesk.getByText('Skipped', { exact: true })).toHaveAttribute(
    'title',
    'Not run: its path was not taken',
  );
  await expect(generalDesk.getByTestId(`node-${generalId}`)).toHaveCSS('filter', /grayscale/);
  // The branch's expression shows what it gave in this run.
  await condition.click();
  await expect(panel.getByTestId('expression-last-run')).toHaveText('Last run: true');
  if (screenshotDir) {
    // The canvas alone: the help (shown again on the workflow's own address) and the steps folded away.
    await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 10_000 });
    const help = page.getByRole('button', { name: 'Hide canvas help' });
    if (await help.isVisible()) await help.click();
    const runPanel = page.getByTestId('run-panel');
    await runPanel.getByRole('button', { name: 'Hide the run’s steps' }).click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByRole('button', { name: 'Fit View' }).click();
      await page.waitForTimeout(400);
      await snap(page, `e2e-triage-canvas-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await runPanel.getByRole('button', { name: 'Show the run’s steps' }).click();
  }

  // The run's details: the general desk listed as skipped, the condition's step with its branch,
  // its expression and value, and the branch taken.
  await page.getByTestId('run-panel').getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const skipped = details.getByTestId('skipped-step');
  await expect(skipped).toHaveCount(1);
  await expect(skipped).toContainText('General desk');
  await expect(skipped).toContainText('Skipped');
  const route = details.locator('[data-testid="agent-output"][data-kind="condition"]');
  await expect(route.getByTestId('agent-output-name')).toHaveText('Route');
  await expect(route.getByTestId('agent-output-content')).toHaveText('Took the path: Billing');
  await route.getByRole('button', { name: /Inspect step/ }).click();
  const branches = route.getByTestId('step-branch');
  await expect(branches).toHaveCount(2);
  await expect(branches.nth(0)).toContainText('Billing');
  await expect(branches.nth(0)).toContainText(`nodes["${classifierId}"].data.category == "billing"`);
  await expect(branches.nth(0).getByTestId('step-branch-value')).toHaveText('true');
  await expect(branches.nth(0)).toContainText('Taken');
  await expect(branches.nth(1)).toContainText('Else');
  await expect(branches.nth(1)).toContainText('When no branch above is true.');
  await expect(branches.nth(1)).not.toContainText('Taken');
  await expect(route.getByTestId('step-branch-taken')).toHaveText('Branch taken: Billing');
  if (screenshotDir) {
    const inspector = route.getByTestId('step-inspector-panel');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', { width: 1440, height: 900 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await inspector.scrollIntoViewIfNeeded();
        await expect(route.getByTestId('step-branch-taken')).toBeVisible();
        await page.waitForTimeout(400);
        await snap(page, `e2e-triage-condition-step-${scheme}-${size}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  // The run's graph: the general desk greyed and Skipped, the condition with the branch it took.
  await details.getByRole('button', { name: 'View graph' }).click();
  const graph = page.getByTestId('run-graph-dialog');
  const greyed = graph.getByTestId(`graph-node-${generalId}`);
  await expect(greyed).toHaveAttribute('data-status', 'skipped');
  await expect(greyed.getByTestId('graph-node-status')).toHaveText('Skipped');
  await expect(graph.getByTestId(`graph-node-${routeId}`)).toHaveAttribute('aria-label', /took Billing/);
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(400);
      await snap(page, `e2e-triage-graph-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
});
