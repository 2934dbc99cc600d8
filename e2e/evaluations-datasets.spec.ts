import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, expectToast, screenshotDir, signInAs, snap, snapScreens, uniqueName } from './fixtures';
import { test } from './fake-model';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

/** Starts a run through the API and waits until it has completed; answers its id. */
async function runToEnd(request: APIRequestContext, headers: Record<string, string>, workflowId: string) {
  const res = await request.post(`/api/workflows/${workflowId}/execute`, {
    headers,
    data: {
      input: { question: `Prices of ${uniqueName('vendor-')}?` },
      dynamicInstructions: '',
      parameters: {},
    },
  });
  expect(res.status()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(
      async () => {
        const list = (await (await request.get('/api/executions', { headers })).json()) as {
          id: string;
          status: string;
        }[];
        return list.find((run) => run.id === id)?.status;
      },
      { timeout: 20_000 },
    )
    .toBe('completed');
  return id;
}

/** The OpenAI Evals export the server's import tests read (5 items, 8 graders of which 5 convert). */
const OPENAI_EXPORT = path.join(
  import.meta.dirname,
  '../apps/server/src/modules/evaluations/import/fixtures/openai-evals-export.json',
);

const CSV = [
  'question,answer,category,notes',
  'Where is my order?,It is in transit,shipping,asked twice',
  'Can I get a refund?,Yes within 30 days,refunds,',
  'Do you ship abroad?,To 40 countries,shipping,new customer',
].join('\n');

test('create a dataset by hand, add an item and import a CSV with a column mapping', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(screenshotDir ? 180_000 : 60_000);
  const { account } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/evaluations');
  await expect(page.getByRole('heading', { name: 'Evaluations', level: 1 })).toBeVisible();
  await expect(page.getByText('No datasets yet')).toBeVisible();
  await expect(page.getByText('No evaluations yet')).toBeVisible();
  await snapScreens(page, page.getByRole('heading', { name: 'Evaluations', level: 1 }), 'evaluations-empty');
  if (screenshotDir) {
    // Nine entries in the top navigation at the narrowest width that shows them as text.
    await page.setViewportSize({ width: 1024, height: 700 });
    await snap(page, 'evaluations-nav-1024');
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // New dataset → its page.
  const name = uniqueName('Support questions ');
  await page.getByRole('button', { name: 'New dataset' }).click();
  const create = page.getByRole('dialog', { name: 'New dataset' });
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Description').fill('What customers ask the support bot');
  await create.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page).toHaveURL(/\/evaluations\/datasets\//);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('dataset-facts')).toContainText('0 items');
  await expect(page.getByText('No items yet')).toBeVisible();

  // Add item: the input must be a JSON object.
  await page.getByRole('button', { name: 'Add item' }).click();
  const add = page.getByRole('dialog', { name: 'Add item' });
  await add.getByLabel('Input').fill('["not", "an object"]');
  await add.getByRole('button', { name: 'Add item' }).click();
  await expect(add.getByText('The input must be a JSON object')).toBeVisible();
  await add.getByLabel('Input').fill('{ "question": "What are your opening hours?" }');
  await add.getByLabel('Expected').fill('{ "hours": "9-17" }');
  await add.getByLabel('Treat as JSON').check();
  await add.getByLabel('Tags').fill('hours, basics');
  await snapScreens(page, add, 'dataset-add-item');
  await add.getByRole('button', { name: 'Add item' }).click();
  await expectToast(page, 'Item added');
  const rows = page.getByTestId('dataset-item');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('What are your opening hours?');
  await expect(rows.first()).toContainText('basics');

  // Import a CSV: 'answer' is the expected answer, 'category' the tags, 'notes' left out.
  await page.getByRole('button', { name: 'Import' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import items' });
  await importDialog.getByLabel('File').setInputFiles({
    name: 'support.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(CSV),
  });
  const mapping = importDialog.getByRole('table', { name: 'Column mapping' });
  await expect(mapping).toBeVisible();
  await expect(importDialog.getByTestId('import-summary')).toContainText('CSV · 3 items in the file');
  await expect(mapping.getByRole('combobox', { name: 'answer becomes' })).toHaveText('Expected');
  await mapping.getByRole('combobox', { name: 'category becomes' }).click();
  await page.getByRole('option', { name: 'Tags' }).click();
  await mapping.getByRole('combobox', { name: 'notes becomes' }).click();
  await page.getByRole('option', { name: 'Ignore' }).click();
  const sample = importDialog.getByRole('table', { name: 'Sample items' });
  await expect(sample.getByRole('row').nth(1)).toContainText('shipping');
  await expect(sample.getByRole('row').nth(1)).not.toContainText('asked twice');
  await snapScreens(page, importDialog, 'dataset-import');
  await importDialog.getByRole('button', { name: 'Import 3 items' }).click();
  await expectToast(page, 'Imported 3 items');
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId('dataset-facts')).toContainText('4 items');
  await expect(rows.nth(1)).toContainText('It is in transit');
  await expect(rows.nth(1)).toContainText('shipping');
  await expect(rows.nth(1)).not.toContainText('asked twice');
  await snapScreens(page, page.getByRole('heading', { name, level: 1 }), 'dataset-page');

  // Back on /evaluations the dataset is listed; New evaluation offers it.
  await page.goto('/evaluations');
  await expect(page.getByRole('link', { name: `Dataset ${name}` })).toContainText('4 items');
  await page.getByRole('button', { name: 'New evaluation' }).click();
  const form = page.getByRole('dialog', { name: 'New evaluation' });
  await form.getByLabel('Name').fill('Support answers');
  await form.getByRole('combobox', { name: 'Dataset' }).click();
  await page.getByRole('option', { name }).click();
  await form.getByRole('combobox', { name: 'Grader type' }).click();
  await page.getByRole('option', { name: 'LLM as judge' }).click();
  await form.getByRole('button', { name: 'Add grader' }).click();
  await snapScreens(page, form.getByRole('heading', { name: 'New evaluation' }), 'evaluation-form');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
  await snapScreens(page, page.getByRole('link', { name: `Dataset ${name}` }), 'evaluations-list');
});

test('add two past runs to a new dataset from the runs list', async ({ page, request, fake }) => {
  test.setTimeout(screenshotDir ? 150_000 : 60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await runToEnd(request, headers, workflow.id);
  await runToEnd(request, headers, workflow.id);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/workflows?tab=executions');
  const cards = page.getByTestId('execution-card');
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) await card.getByRole('checkbox', { name: /^Select run / }).check();
  const bar = page.getByRole('region', { name: 'Selected runs' });
  await expect(bar).toContainText('2 selected');
  await snapScreens(page, bar, 'runs-selected');

  await bar.getByRole('button', { name: 'Add to dataset' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to dataset' });
  const name = uniqueName('From runs ');
  // No dataset yet: a new one, named here.
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel("Use each run's result as expected").check();
  await snapScreens(page, dialog, 'runs-add-to-dataset');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expectToast(page, `Added 2 items to ${name}`);
  await expect(bar).toHaveCount(0);

  await page.getByRole('link', { name: 'Open dataset' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const rows = page.getByTestId('dataset-item');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    await expect(row).toContainText('Prices of');
    await expect(row.getByRole('link', { name: 'Run' })).toBeVisible();
  }
});

test('import an OpenAI Evals export: its items, then a new evaluation that starts with the graders it converted', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(screenshotDir ? 120_000 : 60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  const name = uniqueName('From OpenAI ');
  const created = await request.post('/api/datasets', { headers, data: { name } });
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/evaluations/datasets/${id}`);

  await page.getByRole('button', { name: 'Import' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import items' });
  await importDialog.getByLabel('File').setInputFiles(OPENAI_EXPORT);
  await expect(importDialog.getByTestId('import-summary')).toContainText('OpenAI Evals export · 5 items');
  await expect(importDialog.getByTestId('import-graders')).toHaveText(
    '5 graders converted: after the import, a new evaluation of this dataset starts with them',
  );
  // The Python grader is named as skipped, with why.
  await expect(importDialog.getByRole('list', { name: 'Skipped' })).toContainText('Short enough');
  await snapScreens(page, importDialog, 'dataset-import-openai');
  await importDialog.getByRole('button', { name: 'Import 5 items' }).click();
  // The items are added, and the evaluation form opens with the converted graders.
  await expect(page.getByTestId('dataset-item')).toHaveCount(5);

  const form = page.getByRole('dialog', { name: 'New evaluation' });
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Name').first()).toBeVisible();
  await form.getByLabel('Name').first().fill('Imported graders');
  await form.getByRole('combobox', { name: 'Workflow' }).click();
  await page.getByRole('option', { name: workflow.name }).click();
  await form.getByRole('button', { name: 'Create evaluation' }).click();
  await expect(form).toHaveCount(0);

  const list = (await (
    await request.get(`/api/evaluations?workflowId=${workflow.id}`, { headers })
  ).json()) as {
    name: string;
    datasetId: string;
    graders: { type: string; name?: string }[];
  }[];
  const made = list.find((evaluation) => evaluation.name === 'Imported graders');
  expect(made?.datasetId).toBe(id);
  expect(made?.graders.map((grader) => `${grader.type} ${grader.name}`)).toEqual([
    'exact Exact answer',
    'contains Mentions the refund window',
    'similarity Close to the ideal answer',
    'llm_judge Helpfulness',
    'llm_judge Tone',
  ]);
});
