// A map's progress live on the builder's canvas: a map over 20 items, each answered slowly by the
// fake model, shows its items done out of 20 while it runs (`7/20`), then the full count; the run
// graph of the finished run shows the same count.
import { expect, inEachSchemeAndSize, signInAs, snap, uniqueName } from './fixtures';
import { accountOnFakeModel, test } from './fake-model';

const ITEMS = 20;

test('a running map shows its items done on the canvas, then all of them', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(180_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  const agent = await request.post('/api/agents', {
    headers,
    data: {
      name: 'Enricher',
      role: 'Enricher',
      goal: 'Enrich leads',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  });
  expect(agent.status()).toBe(201);
  const agentId = (await agent.json()).id as string;
  const leads = Array.from({ length: ITEMS }, (_, i) => `"lead ${i + 1}"`).join(', ');
  const created = await request.post('/api/workflows', {
    headers,
    data: {
      name: uniqueName('Enrich leads '),
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 40 }, data: { label: 'Start' } },
        {
          id: 'each',
          type: 'map',
          position: { x: 180, y: 0 },
          data: {
            label: 'Enrich leads',
            items: `[${leads}]`,
            run: { agentId, prompt: 'Enrich {{ item }}' },
            concurrency: 2,
            onItemError: 'continue',
          },
        },
        { id: 'end', type: 'end', position: { x: 500, y: 40 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'each' },
        { id: 'e2', source: 'each', target: 'end' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = (await created.json()).id as string;

  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflowId}`);
  const node = page.getByTestId('node-each');
  // The builder's first load (its canvas chunk) takes longer than a page on a machine busy with the
  // server suite beside the browser tests.
  await expect(node).toBeVisible({ timeout: 20_000 });
  await expect(node.getByTestId('item-progress')).toHaveCount(0);

  // Two at a time, 2 s each: about 20 s of items, time enough to see the count grow.
  fake.script(
    Array.from({ length: ITEMS }, (_, i) => ({ content: `Lead ${i + 1}: enriched.`, delayMs: 2000 })),
  );
  const started = await request.post(`/api/workflows/${workflowId}/execute`, { headers, data: {} });
  expect(started.status(), await started.text()).toBe(202);
  const { id } = (await started.json()) as { id: string };

  const progress = node.getByTestId('item-progress');
  await expect(progress).toHaveAttribute('data-total', String(ITEMS), { timeout: 20_000 });
  // A partial count while the map runs: some items done, not all.
  await expect(progress).toHaveAttribute('data-done', /^([1-9]|1[0-5])$/, { timeout: 20_000 });
  await expect(progress).toContainText(new RegExp(`\\d+/${ITEMS}items`));
  await expect(node).toHaveAttribute('data-run-status', 'running');
  await expect(progress).toContainText(/of 20 items done/);
  // The canvas help would cover the map on a phone.
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await page.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(300);
    await snap(page, `map-progress-running-${scheme}-${size}`);
  });

  // Then the full count, and the map done.
  await expect(progress).toHaveAttribute('data-done', String(ITEMS), { timeout: 60_000 });
  await expect(progress).toContainText(`${ITEMS}/${ITEMS}`);
  await expect(node).toHaveAttribute('data-run-status', 'completed');
  await expect(progress).not.toContainText('failed');
  await page.getByRole('button', { name: 'Fit View' }).click();
  await page.waitForTimeout(300);
  await snap(page, 'map-progress-done-light-desktop');

  // The finished run's graph counts the same.
  const run = await (await request.get(`/api/executions/${id}`, { headers })).json();
  expect(run.status).toBe('completed');
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  await page.getByRole('button', { name: 'View Details' }).first().click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  await details.getByRole('button', { name: 'View graph' }).click();
  const graphNode = page.getByTestId('run-graph-dialog').getByTestId('graph-node-each');
  await expect(graphNode).toHaveAttribute('data-status', 'completed');
  await expect(graphNode.getByTestId('item-progress')).toContainText(`${ITEMS}/${ITEMS}`);
  await expect(graphNode).toHaveAttribute('aria-label', /20 of 20 items done/);
  await snap(page, 'map-progress-run-graph-light-desktop');
});
