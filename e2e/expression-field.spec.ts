// Issue 35, Expressions: the builder's expression fields complete the paths upstream of the node
// (an upstream agent's output schema fields included), flag errors as they are typed, and show what
// the expression gave in the workflow's last run.
import { expect, inEachSchemeAndSize, signInAs, snap, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

test('a condition’s When field completes upstream paths, flags errors and shows the last run’s value', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const agent = await request.post('/api/agents', {
    headers,
    data: {
      name: 'Classifier',
      role: 'Triage',
      goal: 'Sort messages',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  });
  expect(agent.status()).toBe(201);
  const agentId = (await agent.json()).id as string;
  const created = await request.post('/api/workflows', {
    headers,
    data: {
      name: uniqueName('Triage '),
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 150 }, data: { label: 'Start' } },
        {
          id: 'classify',
          type: 'agent',
          agentId,
          position: { x: 200, y: 120 },
          data: {
            agentId,
            label: 'Classify',
            outputSchema: {
              type: 'object',
              properties: {
                category: {
                  type: 'string',
                  enum: ['billing', 'bug', 'other'],
                  description: 'Which team answers',
                },
                urgent: { type: 'boolean' },
              },
              required: ['category', 'urgent'],
              additionalProperties: false,
            },
          },
        },
        {
          id: 'route',
          type: 'condition',
          position: { x: 500, y: 120 },
          data: {
            label: 'Route',
            branches: [
              { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
            ],
          },
        },
        { id: 'end', type: 'end', position: { x: 800, y: 150 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'classify' },
        { id: 'e2', source: 'classify', target: 'route' },
        { id: 'e3', source: 'route', target: 'end', sourceHandle: 'billing' },
        { id: 'e4', source: 'route', target: 'end', sourceHandle: 'else' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = (await created.json()).id as string;

  fake.script([{ data: { category: 'bug', urgent: true } }]);
  const started = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: { input: { message: 'The export crashes' } },
  });
  expect(started.status()).toBe(202);
  const runId = (await started.json()).id as string;
  await expect
    .poll(async () => (await (await request.get(`/api/executions/${runId}`, { headers })).json()).status, {
      timeout: 30_000,
    })
    .toBe('completed');

  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/workflows/edit/${workflowId}`);
  await page.locator('.react-flow__node-condition').click();
  const panel = page.getByRole('tabpanel', { name: 'Properties' });
  const when = panel.getByRole('combobox', { name: 'When' });

  // The saved expression's value in the last run (the classifier said "bug").
  await expect(panel.getByTestId('expression-last-run')).toHaveText('Last run: false');

  // Typing a path lists what it may read, with each node's label; Enter inserts the one chosen.
  await when.fill('');
  await when.pressSequentially('nodes.cl');
  const list = panel.getByRole('listbox', { name: 'Paths for When' });
  await expect(list.getByRole('option')).toHaveCount(5);
  const category = list.getByRole('option', { name: /^nodes\.classify\.data\.category/ });
  await expect(category).toContainText('Classify');
  await expect(category).toContainText('Which team answers');
  // Down to it (the fields come in the order the stored schema lists them).
  const index = (await list.getByRole('option').allTextContents()).findIndex((text) =>
    text.startsWith('nodes.classify.data.category'),
  );
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(category).toHaveAttribute('aria-selected', 'true');
  await expect(when).toHaveAttribute('aria-activedescendant', /.+/);
  await page.keyboard.press('Enter');
  await expect(when).toHaveValue('nodes.classify.data.category');
  await expect(list).toHaveCount(0);

  // A condition must give true or false; a field the schema does not have is named.
  await expect(panel.getByTestId('expression-error')).toHaveText('gives a string, not true or false');
  await when.pressSequentially(' == "bug" && nodes.classify.data.urgnt');
  await expect(panel.getByTestId('expression-error')).toHaveText(
    /^nodes\.classify\.data has no field "urgnt" \(its fields: (category, urgent|urgent, category)\)$/,
  );
  await when.fill('nodes.classify.data.category == "bug" && nodes.classify.data.urgent');
  await expect(panel.getByTestId('expression-error')).toHaveCount(0);
  await expect(panel.getByTestId('expression-last-run')).toHaveText('Last run: true');

  // Pictures of the list open, in each scheme and size.
  await inEachSchemeAndSize(page, async (scheme, size) => {
    const field = page.getByRole('tabpanel', { name: 'Properties' }).getByRole('combobox', { name: 'When' });
    await field.scrollIntoViewIfNeeded();
    await field.fill('');
    await field.pressSequentially('nodes.cl');
    await expect(page.getByRole('listbox', { name: 'Paths for When' })).toBeVisible();
    await page.waitForTimeout(300);
    await snap(page, `expression-field-${scheme}-${size}`);
  });

  // And the field once written: no error, the last run's value under it.
  await inEachSchemeAndSize(page, async (scheme, size) => {
    const field = page.getByRole('tabpanel', { name: 'Properties' }).getByRole('combobox', { name: 'When' });
    await field.fill('nodes.classify.data.category == "bug" && nodes.classify.data.urgent');
    await field.blur();
    await expect(page.getByTestId('expression-last-run')).toHaveText('Last run: true');
    await page.getByTestId('expression-last-run').scrollIntoViewIfNeeded();
    await snap(page, `expression-field-last-run-${scheme}-${size}`);
  });
});
