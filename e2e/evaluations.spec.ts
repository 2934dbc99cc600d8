// Evaluations end to end (issue 39): a dataset from two past runs picked on the runs list, an
// evaluation of their answers (made through the API), a run against the active version followed live
// on its page, a changed workflow run again, and the comparison of the two runs showing the item that
// regressed.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signInAs, snapScreens, uniqueName } from './fixtures';
import { test } from './fake-model';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

type Headers = Record<string, string>;

/** Starts a run with `input` through the API and waits until it has completed; answers its id. */
async function runToCompletion(
  request: APIRequestContext,
  headers: Headers,
  workflowId: string,
  input: object,
) {
  const res = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: { input, dynamicInstructions: '', parameters: {} },
  });
  expect(res.status()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(async () => (await (await request.get(`/api/executions/${id}`, { headers })).json()).status, {
      timeout: 20_000,
    })
    .toBe('completed');
  return id;
}

/** Runs the evaluation from its page against the active version and waits on the run's page for its end. */
async function runEvaluation(
  page: Page,
  evaluationId: string,
  versionLabel: string,
  passRate: string,
  whileRunning?: () => Promise<void>,
) {
  await page.goto(`/evaluations/${evaluationId}`);
  await page.getByRole('button', { name: 'Run evaluation' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Run evaluation' });
  await expect(dialog.getByLabel('Version')).toHaveText('Active version');
  await expect(dialog.getByLabel('Concurrency')).toHaveValue('5');
  await dialog.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(page).toHaveURL(/\/evaluations\/runs\/[^/]+$/);
  await expect(page.getByText(`against ${versionLabel}`)).toBeVisible();
  await whileRunning?.();
  await expect(page.getByRole('heading', { level: 1 }).getByText('completed')).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByTestId('eval-pass-rate').getByTestId('stat-value')).toHaveText(passRate);
  return page.url().split('/').pop()!;
}

test('a dataset from two past runs, an evaluation run twice, and the comparison that shows the regression', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');

  // Two past runs, each answered with the fake model's echo of its input.
  const first = await runToCompletion(request, headers, workflow.id, { message: 'Alpha prices' });
  const second = await runToCompletion(request, headers, workflow.id, { message: 'Beta prices' });

  // On the runs list: tick both, 'Add to dataset', a new dataset with their results as expected.
  await signInAs(page, account);
  await page.goto('/workflows?tab=executions');
  for (const id of [first, second])
    await page
      .locator(`[data-execution-id="${id}"]`)
      .getByRole('checkbox', { name: /^Select run/ })
      .click();
  const selection = page.getByRole('region', { name: 'Selected runs' });
  await expect(selection.getByTestId('selected-count')).toHaveText('2 selected');
  await selection.getByRole('button', { name: 'Add to dataset' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add to dataset' });
  const datasetName = uniqueName('Price questions ');
  await addDialog.getByLabel('Name').fill(datasetName);
  await addDialog.getByLabel("Use each run's result as expected").click();
  await addDialog.getByRole('button', { name: 'Add' }).click();
  await expect(addDialog).toBeHidden();
  const datasets = (await (await request.get('/api/datasets', { headers })).json()) as {
    id: string;
    name: string;
    itemCount: number;
  }[];
  const dataset = datasets.find((candidate) => candidate.name === datasetName)!;
  expect(dataset.itemCount).toBe(2);

  // An evaluation: the answer must be the expected one.
  const evaluationName = uniqueName('Price answers ');
  const evaluationRes = await request.post('/api/evaluations', {
    headers,
    data: {
      name: evaluationName,
      workflowId: workflow.id,
      datasetId: dataset.id,
      graders: [{ type: 'exact', name: 'Same answer' }],
      passThreshold: 1,
    },
  });
  expect(evaluationRes.status()).toBe(201);
  const evaluation = (await evaluationRes.json()) as { id: string };

  await page.goto(`/evaluations/${evaluation.id}`);
  await expect(page.getByRole('heading', { name: evaluationName })).toBeVisible();
  await expect(page.getByRole('link', { name: workflow.name })).toHaveAttribute(
    'href',
    `/workflows/edit/${workflow.id}`,
  );
  await expect(page.getByText('Same answer · Exact match · weight 1')).toBeVisible();
  await expect(page.getByText('No runs yet')).toBeVisible();
  await page.getByRole('button', { name: 'Run evaluation' }).first().click();
  await snapScreens(page, page.getByRole('dialog', { name: 'Run evaluation' }), 'eval-run-dialog');
  await page.keyboard.press('Escape');

  // Against the active version (v1): both items pass.
  const before = await runEvaluation(page, evaluation.id, 'v1', '100 %');
  const items = page.getByTestId('eval-item-row');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toHaveAttribute('data-state', 'passed');
  await snapScreens(page, page.getByRole('heading', { level: 1 }), 'eval-run-page', { fullPage: true });

  // The workflow changes (a new version, v2), and with it the answer to one case.
  const current = await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json();
  const nodes = (current.nodes as { id: string; data: Record<string, unknown> }[]).map((node) =>
    node.id === 'analyst' ? { ...node, data: { ...node.data, description: 'Answer in one line' } } : node,
  );
  const saved = await request.put(`/api/workflows/${workflow.id}`, {
    headers,
    data: { nodes, versionNote: 'One-line answers' },
  });
  expect(saved.ok()).toBe(true);
  // Its answer comes late: the run's page shows the progress and Cancel meanwhile.
  fake.script([{ when: 'Beta prices', content: 'Prices went up.', delayMs: 8_000 }]);

  const after = await runEvaluation(page, evaluation.id, 'v2', '50 %', async () => {
    const progress = page.getByRole('region', { name: 'Progress' });
    await expect(progress.getByTestId('eval-run-progress')).toHaveText('1/2');
    await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await snapScreens(page, progress, 'eval-run-progress');
  });
  await expect(items.first()).toHaveAttribute('data-state', 'failed');
  await expect(items.first()).toContainText('Prices went up.');
  // Each item links to the run it made, whose details open over the runs list.
  await items.first().getByRole('link', { name: 'Run' }).click();
  await expect(page).toHaveURL(/\/workflows\?tab=executions&run=/);
  await expect(page.getByRole('dialog')).toContainText('Prices went up.');

  // Both runs on the evaluation's page; tick them and compare.
  await page.goto(`/evaluations/${evaluation.id}`);
  const runs = page.getByTestId('eval-run-row');
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toContainText('v2');
  await expect(runs.nth(0)).toContainText('50 %');
  await expect(runs.nth(1)).toContainText('v1');
  await runs.nth(0).getByRole('checkbox').click();
  await runs.nth(1).getByRole('checkbox').click();
  await snapScreens(page, page.getByRole('heading', { name: evaluationName }), 'evaluation-page', {
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(`/evaluations/compare?a=${before}&b=${after}`);

  await expect(page.getByRole('heading', { name: 'v1 → v2' })).toBeVisible();
  await expect(page.getByTestId('compare-pass-rate')).toContainText('\u221250 pts');
  await expect(page.getByTestId('compare-regressions')).toContainText('1');
  await page.getByRole('button', { name: /^Regressions/ }).click();
  const rows = page.getByTestId('compare-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Beta prices');
  await expect(rows.first()).toContainText('Regressed');
  await expect(rows.first().getByTestId('diff-after').locator('ins')).not.toHaveCount(0);
  await expect(rows.first().getByTestId('diff-after')).toContainText('Prices went up.');
  await snapScreens(page, page.getByRole('heading', { name: 'v1 → v2' }), 'eval-compare-page', {
    fullPage: true,
  });
});
