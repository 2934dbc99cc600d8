// Issue 40, Code step: add one from the palette, write its JavaScript in the editor, test it with sample
// data (its returned value and console line), save, run it with input items, and read its result and
// console in the run's step inspector.
import { connect } from './canvas';
import { createAccount, expect, signInAs, snapScreens, test, uniqueName } from './fixtures';
import { openStepInspector } from './step-inspector';

const SOURCE =
  "console.log('items', input.items.length); return { total: input.items.reduce((a, b) => a + b, 0) }";

test('a Code step: written in the editor, tested on sample data, run, and inspected', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/workflows/new');
  const name = uniqueName('Totals ');
  await page.getByLabel('Workflow name').fill(name);

  // From the palette, between Start and End.
  await page.getByRole('tab', { name: 'Steps' }).click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('button', { name: 'Add Code' })).toContainText(
    'Runs a few lines of JavaScript on the data so far, in a sandbox; no model.',
  );
  await steps.getByRole('button', { name: 'Add Code' }).click();
  const canvas = page.locator('.react-flow');
  const code = canvas.locator('.react-flow__node-code');
  await expect(code).toContainText('No code yet');
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();
  await connect(page, page.getByTestId('node-start'), code);
  await connect(page, code, page.getByTestId('node-end'));
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(2);

  // The editor is downloaded only now, when a Code node's panel opens.
  expect(scripts.filter((s) => s.includes('code-editor'))).toEqual([]);
  await code.click();
  const panel = page.getByRole('tabpanel', { name: 'Properties' });
  await expect(panel.getByText('Code node')).toBeVisible();
  const editor = panel.getByRole('textbox', { name: 'Code' });
  await expect(editor).toBeVisible();
  expect(scripts.some((s) => s.includes('code-editor'))).toBe(true);
  await editor.click();
  await page.keyboard.insertText(SOURCE);
  await expect(editor).toHaveText(SOURCE);
  // JavaScript is highlighted: the keyword and the string are tokens of their own.
  await expect(editor.locator('span').filter({ hasText: /^return$/ })).toHaveCount(1);
  await expect(editor.locator('span').filter({ hasText: /^'items'$/ })).toHaveCount(1);
  await expect(panel.getByTestId('code-editor').locator('.cm-lineNumbers')).toContainText('1');
  await expect(
    panel.getByText(
      "Reads input, nodes and vars; return a JSON value. console.log lines go to the step's logs.",
    ),
  ).toBeVisible();
  await expect(panel.getByLabel('Time limit (ms)')).toHaveAttribute('placeholder', '2000');
  await expect(panel.getByLabel('Memory limit (MiB)')).toHaveAttribute('placeholder', '64');
  await expect(code).toContainText("console.log('items', input.items.length);");

  // Light and dark: the editor follows the app's theme (CodeMirror's light theme, or One Dark).
  const codeEditor = panel.getByTestId('code-editor');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(codeEditor).toHaveClass(/cm-theme-dark/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(codeEditor).toHaveClass(/cm-theme-light/);
  await snapScreens(page, panel.getByTestId('code-editor'), 'code-step-panel');

  // Saved as { language, source }: "Test this node" needs a saved workflow.
  await page.getByRole('button', { name: /Save Draft/ }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  const list = (await (await request.get('/api/workflows', { headers })).json()) as {
    id: string;
    name: string;
    nodes: { id: string; type: string; data: Record<string, unknown> }[];
  }[];
  const saved = list.find((w) => w.name === name)!;
  expect(saved.nodes.find((n) => n.type === 'code')?.data).toMatchObject({
    language: 'javascript',
    source: SOURCE,
  });

  // Test it on sample data: its value and its console line.
  await page.goto(`/workflows/edit/${saved.id}`);
  await canvas.locator('.react-flow__node-code').click();
  await panel.getByRole('button', { name: 'Test this node' }).click();
  const dialog = page.getByTestId('test-node-dialog');
  await expect(dialog.getByRole('tab', { name: 'Sample data' })).toHaveAttribute('aria-selected', 'true');
  await dialog.getByLabel('What the step reads').fill('{"input": {"items": [1, 2, 3]}}');
  await dialog.getByRole('button', { name: 'Run test' }).click();
  const result = dialog.getByTestId('test-node-result');
  await expect(result).toContainText('Completed', { timeout: 20_000 });
  await expect(result.getByRole('list', { name: 'Console lines' })).toHaveText('items 3');
  const testData = result.getByRole('group', { name: 'Test data' });
  await expect(testData).toContainText('total');
  await expect(testData).toContainText('6');
  await snapScreens(page, result, 'code-step-test');
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // Code that never ends is stopped at the time limit, and the test says so (unsaved code is tested).
  const replaceSource = async (text: string) => {
    await panel.getByRole('textbox', { name: 'Code' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
    await expect(panel.getByRole('textbox', { name: 'Code' })).toHaveText(text);
  };
  await replaceSource('while (true) {}');
  await panel.getByRole('button', { name: 'Test this node' }).click();
  await dialog.getByLabel('What the step reads').fill('{"input": {"items": [1, 2, 3]}}');
  await dialog.getByRole('button', { name: 'Run test' }).click();
  await expect(result).toContainText('Failed', { timeout: 20_000 });
  await expect(result).toContainText('Code step stopped: it ran longer than 2 s');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await replaceSource(SOURCE);

  // Run it with input items, then read the step in the run's details.
  const activated = await request.put(`/api/workflows/${saved.id}`, { headers, data: { status: 'active' } });
  expect(activated.status(), await activated.text()).toBe(200);
  const started = await request.post(`/api/workflows/${saved.id}/execute`, {
    headers,
    data: { input: { items: [4, 5, 6] } },
  });
  expect(started.status(), await started.text()).toBe(202);
  const runId = (await started.json()).id as string;
  await expect
    .poll(async () => (await (await request.get(`/api/executions/${runId}`, { headers })).json()).status, {
      timeout: 30_000,
    })
    .toBe('completed');

  const inspector = await openStepInspector(page, name, runId, 'code');
  await expect(inspector.getByRole('heading', { name: 'Console' })).toBeVisible();
  await expect(inspector.getByRole('list', { name: 'Console lines' })).toHaveText('items 3');
  await expect(inspector.getByRole('heading', { name: 'Result' })).toBeVisible();
  await expect(inspector.getByRole('group', { name: 'Step data' })).toContainText('15');
  await snapScreens(page, inspector, 'code-step-inspector');
  expect(errors).toEqual([]);
});

test('the Workflow nodes guide documents the Code step: its node JSON, limits and sandbox', async ({
  page,
}) => {
  await page.goto('/docs/workflow-nodes#code');
  const heading = page.getByRole('heading', { level: 2, name: /^Code( |$)/ });
  await expect(heading).toBeVisible();
  const section = page.locator('section', { has: heading });
  await expect(section.locator('pre').first()).toContainText('"type": "code"');
  await expect(section).toContainText('Code step stopped: it ran longer than 2 s');
  await expect(section).toContainText('A sandbox, not Node.js');
  await expect(section.getByRole('table')).toContainText('timeoutMs');
  await snapScreens(page, heading, 'code-step-docs', { waitForToasts: false });
});
