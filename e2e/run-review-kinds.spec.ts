// Reviewing a run of a workflow that decides: the condition's step shows each branch's expression
// and value and the branch taken, a transform's values show as a tree, the step whose path was not
// taken is listed as skipped, and the run graph greys it.
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotDir, signInAs, snap, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

async function createAgent(request: APIRequestContext, headers: Record<string, string>, name: string) {
  const res = await request.post('/api/agents', {
    headers,
    data: { name, role: name, goal: 'Help customers', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).id as string;
}

const agentNode = (id: string, agentId: string, name: string, x: number, y: number) => ({
  id,
  type: 'agent',
  agentId,
  position: { x, y },
  data: { agentId, label: name, name, role: name },
});

test('a run that took one branch: its condition, its values, the skipped step and the greyed graph', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const classifier = await createAgent(request, headers, 'Classifier');
  const billing = await createAgent(request, headers, 'Billing desk');
  const general = await createAgent(request, headers, 'General desk');
  const name = uniqueName('Support triage ');
  const created = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 150 }, data: { label: 'Start' } },
        agentNode('classify', classifier, 'Classifier', 180, 120),
        {
          id: 'prepare',
          type: 'transform',
          position: { x: 480, y: 135 },
          data: {
            label: 'Prepare ticket',
            assignments: [
              { name: 'priority', value: '"high"' },
              { name: 'customer', value: '{"name": "Ada", "plan": "Pro", "orders": [1042, 1077]}' },
              { name: 'billing', value: 'nodes.classify.content.contains("billing")' },
            ],
          },
        },
        {
          id: 'route',
          type: 'condition',
          position: { x: 740, y: 120 },
          data: {
            label: 'Route by topic',
            branches: [
              { id: 'billing', label: 'Billing', when: 'vars.billing' },
              { id: 'urgent', label: 'Urgent', when: 'vars.priority == "urgent"' },
            ],
          },
        },
        agentNode('billing-desk', billing, 'Billing desk', 1020, 0),
        agentNode('general-desk', general, 'General desk', 1020, 260),
        { id: 'join', type: 'merge', position: { x: 1320, y: 135 }, data: { label: 'Join', mode: 'all' } },
        { id: 'end', type: 'end', position: { x: 1560, y: 150 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'classify' },
        { id: 'e2', source: 'classify', target: 'prepare' },
        { id: 'e3', source: 'prepare', target: 'route' },
        { id: 'e4', source: 'route', target: 'billing-desk', sourceHandle: 'billing' },
        { id: 'e5', source: 'route', target: 'general-desk', sourceHandle: 'else' },
        { id: 'e6', source: 'billing-desk', target: 'join' },
        { id: 'e7', source: 'general-desk', target: 'join' },
        { id: 'e8', source: 'join', target: 'end' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = (await created.json()).id as string;

  fake.script([
    { content: 'This is a billing question: the customer was charged twice.' },
    { content: 'Refund issued for the second charge.' },
  ]);
  const started = await request.post(`/api/workflows/${workflowId}/execute`, { headers, data: {} });
  expect(started.status()).toBe(202);
  const { id } = await started.json();
  let run: { status: string; error: string | null } = { status: 'pending', error: null };
  await expect
    .poll(
      async () => {
        run = await (await request.get(`/api/executions/${id}`, { headers })).json();
        return run.status;
      },
      { timeout: 30_000 },
    )
    .not.toMatch(/pending|running/);
  expect(run.error).toBeNull();
  expect(run.status).toBe('completed');

  await signInAs(page, account);
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const card = page.getByRole('article', { name: `${name} execution ${id.slice(0, 8)}` });
  await card.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });

  // The step whose path was not taken is listed as skipped, never as failed or missing.
  const skipped = details.getByTestId('skipped-step');
  await expect(skipped).toHaveCount(1);
  await expect(skipped).toContainText('General desk');
  await expect(skipped).toContainText('Skipped');
  await snapScreens(page, skipped, 'run-review-skipped-step');

  // The condition: each branch's expression and value, and the branch taken.
  const condition = details.locator('[data-testid="agent-output"][data-kind="condition"]');
  await expect(condition.getByTestId('agent-output-name')).toHaveText('Route by topic');
  await expect(condition.getByTestId('agent-output-content')).toHaveText('Took the path: Billing');
  await condition.getByRole('button', { name: /Inspect step/ }).click();
  const branches = condition.getByTestId('step-branch');
  await expect(branches).toHaveCount(3);
  await expect(branches.nth(0)).toContainText('vars.billing');
  await expect(branches.nth(0)).toContainText('true');
  await expect(branches.nth(1)).toContainText('not evaluated');
  await expect(condition.getByTestId('step-branch-taken')).toHaveText('Branch taken: Billing');
  await snapScreens(page, condition.getByTestId('step-inspector-panel'), 'run-review-condition');

  // The transform: its values, and its data as a tree.
  const transform = details.locator('[data-testid="agent-output"][data-kind="transform"]');
  await transform.getByRole('button', { name: /Inspect step/ }).click();
  await expect(transform.getByTestId('step-assignment')).toHaveCount(3);
  const tree = transform.getByRole('group', { name: 'Step data' });
  await expect(tree).toContainText('"Ada"');
  await tree.getByRole('button', { name: /orders:/ }).focus();
  await page.keyboard.press('Enter');
  await expect(tree.getByRole('button', { name: /orders:/ })).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(tree).toContainText('1077');
  await snapScreens(page, tree, 'run-review-data-tree');

  // The graph: the skipped step greyed, the branch taken on the condition.
  await details.getByRole('button', { name: 'View graph' }).click();
  const graph = page.getByTestId('run-graph-dialog');
  const greyed = graph.getByTestId('graph-node-general-desk');
  await expect(greyed).toHaveAttribute('data-status', 'skipped');
  await expect(greyed.getByTestId('graph-node-status')).toHaveText('Skipped');
  await expect(graph.getByTestId('graph-node-route')).toHaveAttribute('aria-label', /took Billing/);
  await snapScreens(page, graph, 'run-review-graph');
  // A close-up of the branch taken and the greyed step, in each scheme.
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await graph.getByRole('button', { name: 'Fit View' }).click();
      for (let i = 0; i < 3; i++) await graph.getByRole('button', { name: 'Zoom In' }).click();
      await page.waitForTimeout(400);
      await snap(page, `run-review-graph-close-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
});
