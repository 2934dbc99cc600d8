// The activation gate end to end (issue 39): an active workflow with an evaluation of two cases (made
// through the API), the gate set in the builder's Evaluations section at 80 %, a changed prompt, and
// Activate: the evaluation runs first with its progress in the builder, one case regresses (50 %), the
// refusal names it, and the owner activates anyway with a note kept with the new version.
import { expect, signInAs, snapScreens, uniqueName } from './fixtures';
import { test } from './fake-model';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

test('Activate behind the gate: progress, the refusal with the failed item, and an owner activating anyway', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');

  // Two cases whose answer must mention their question (the fake model echoes it back).
  const datasetRes = await request.post('/api/datasets', {
    headers,
    data: { name: uniqueName('Price questions ') },
  });
  expect(datasetRes.status()).toBe(201);
  const dataset = (await datasetRes.json()) as { id: string };
  const itemsRes = await request.post(`/api/datasets/${dataset.id}/items`, {
    headers,
    data: {
      items: [
        { input: { message: 'Alpha prices' }, expected: 'Alpha prices' },
        { input: { message: 'Beta prices' }, expected: 'Beta prices' },
      ],
    },
  });
  expect(itemsRes.status()).toBe(201);
  const evaluationName = uniqueName('Answers stay on topic ');
  const evaluationRes = await request.post('/api/evaluations', {
    headers,
    data: {
      name: evaluationName,
      workflowId: workflow.id,
      datasetId: dataset.id,
      graders: [{ type: 'contains', name: 'Mentions the question' }],
      passThreshold: 1,
    },
  });
  expect(evaluationRes.status()).toBe(201);
  const evaluation = (await evaluationRes.json()) as { id: string };

  // The builder's Settings tab: the evaluation, never run yet, and the gate at 80 %.
  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  await expect(page.getByRole('textbox', { name: 'Workflow name' })).toHaveValue(workflow.name);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Evaluations' });
  const row = section.getByRole('listitem').filter({ hasText: evaluationName });
  await expect(row).toContainText('Never run');
  await expect(row.getByRole('link', { name: evaluationName })).toHaveAttribute(
    'href',
    `/evaluations/${evaluation.id}`,
  );
  await expect(section.getByRole('link', { name: 'New evaluation' })).toHaveAttribute('href', '/evaluations');
  await section
    .getByRole('switch', { name: 'Require an evaluation to pass before Activate records a version' })
    .click();
  await section.getByLabel('Evaluation', { exact: true }).click();
  await page.getByRole('option', { name: evaluationName }).click();
  await section.getByLabel('Minimum pass rate').fill('80');
  await snapScreens(page, section, 'builder-evaluations-section');

  // A changed prompt; its answer to one case now misses the question, and comes late.
  await page.locator('.react-flow__node[data-id="analyst"]').click();
  await page.getByLabel('Prompt', { exact: true }).fill('Answer in one line: {{ input.message }}');
  fake.script([{ when: 'Beta prices', content: 'Prices went up.', delayMs: 8_000 }]);

  // Activate: the evaluation runs first, and the builder follows it.
  await page.getByRole('button', { name: 'Activate', exact: true }).click();
  const progress = page.getByRole('dialog', { name: 'Evaluating before activation' });
  await expect(progress.getByTestId('gate-progress')).toHaveText('1/2', { timeout: 15_000 });
  await expect(progress.getByRole('link', { name: 'Open the eval run' })).toHaveAttribute(
    'href',
    /^\/evaluations\/runs\/[^/]+$/,
  );
  await snapScreens(page, progress, 'builder-gate-progress', { waitForToasts: false });

  // 50 % is below 80 %: refused, naming the case that failed.
  const refused = page.getByRole('dialog', { name: 'Activation refused' });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(refused).toContainText('The evaluation passed 50 % of the items; activation needs 80 %');
  const failed = refused.getByTestId('gate-failed-item');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('{"message":"Beta prices"}');
  await expect(failed).toContainText('Mentions the question');
  await snapScreens(page, refused, 'builder-gate-refused');

  // The owner activates anyway; the note is kept with the new version.
  await refused.getByRole('button', { name: 'Activate anyway' }).click();
  await expect(refused.getByText('Say why')).toBeVisible();
  await refused.getByLabel('Why activate anyway?').fill('Beta answers are being reworded');
  await refused.getByRole('button', { name: 'Activate anyway' }).click();
  await expect(refused).toBeHidden();
  await expect(page.getByText('Workflow Activated').first()).toBeVisible();

  const versions = (await (
    await request.get(`/api/workflows/${workflow.id}/versions`, { headers })
  ).json()) as { version: number; note: string | null }[];
  expect(versions).toHaveLength(2);
  expect(versions[0]!.note).toBe('Activation gate overridden: Beta answers are being reworded');
  // The gate was saved with the workflow.
  const saved = await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json();
  expect(saved.config.activationGate).toEqual({ evaluationId: evaluation.id, minPassRate: 0.8 });
});
