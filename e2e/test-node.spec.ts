// Issue 35, Builder: "Test this node" runs one step with the last run's upstream data (or typed sample
// data) without starting a run, and shows its outcome: status, values, data, tokens and time.
import { expect, signInAs, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

test('tests a condition with the last run’s data, then with sample data', async ({ page, request, fake }) => {
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
              properties: { category: { type: 'string', enum: ['billing', 'bug', 'other'] } },
              required: ['category'],
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
              { id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' },
            ],
          },
        },
        { id: 'end', type: 'end', position: { x: 800, y: 150 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'classify' },
        { id: 'e2', source: 'classify', target: 'route' },
        { id: 'e3', source: 'route', target: 'end', sourceHandle: 'billing' },
        { id: 'e4', source: 'route', target: 'end', sourceHandle: 'bug' },
        { id: 'e5', source: 'route', target: 'end', sourceHandle: 'else' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = (await created.json()).id as string;

  fake.script([{ data: { category: 'bug' } }]);
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
  await panel.getByRole('button', { name: 'Test this node' }).click();

  const dialog = page.getByTestId('test-node-dialog');
  await expect(dialog.getByRole('tab', { name: 'Use the last run’s data' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await dialog.getByRole('button', { name: 'Run test' }).click();
  const result = dialog.getByTestId('test-node-result');
  await expect(result).toContainText('Completed');
  await expect(result).toContainText('with the last run’s data');
  await expect(dialog.getByTestId('test-node-evaluated')).toContainText('Bug = true');
  await expect(result.getByRole('group', { name: 'Test data' })).toContainText('"bug"');
  await snapScreens(page, dialog, 'test-node-last-run');

  // Sample data: prefilled with the upstream step; typed data gives another branch.
  await dialog.getByRole('tab', { name: 'Sample data' }).click();
  const editor = dialog.getByLabel('What the step reads');
  await expect(editor).toHaveValue(/"classify"/);
  await editor.fill('{ "nodes": { "classify": { "data": { "category": "billing" } } } }');
  await dialog.getByRole('button', { name: 'Run test' }).click();
  await expect(dialog.getByTestId('test-node-evaluated')).toContainText('Billing = true');
  await expect(result).not.toContainText('with the last run’s data');
  await snapScreens(page, dialog, 'test-node-sample');

  // Nothing was stored: the workflow still has its one run.
  const runs = await (await request.get(`/api/executions?workflowId=${workflowId}`, { headers })).json();
  expect(runs).toHaveLength(1);
  // The condition called no model: only the run's classification was asked.
  expect(fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'))).toHaveLength(1);
});
