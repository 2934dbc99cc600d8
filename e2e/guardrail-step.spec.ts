// Issue 40, Guardrail step: add one from the palette (it starts with a PII check that redacts), wire
// its Pass and Fail paths, run it on a text with an email, and read the redacted text and the finding
// (its kind and position, never the address) in the run's step inspector.
import { connect, connectHandle } from './canvas';
import { createAccount, expect, signInAs, snapScreens, test, uniqueName } from './fixtures';
import { openStepInspector } from './step-inspector';

const INPUT = 'Write to ana@example.com please';

test('a Guardrail step: PII redacted on its Pass path, the finding in the step inspector', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/workflows/new');
  const name = uniqueName('Screened ');
  await page.getByLabel('Workflow name').fill(name);

  // From the palette: it starts with one PII check that redacts, and shows its two paths.
  await page.getByRole('tab', { name: 'Steps' }).click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await steps.getByRole('button', { name: 'Add Guardrail' }).click();
  const canvas = page.locator('.react-flow');
  const guardrail = canvas.locator('.react-flow__node-guardrail');
  await expect(guardrail).toContainText('PII redacts');
  await expect(guardrail.getByTestId('path-pass')).toHaveText('Pass');
  await expect(guardrail.getByTestId('path-fail')).toHaveText('Fail');
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();

  // Start → Guardrail; Pass → End and Fail → End.
  const end = page.getByTestId('node-end');
  await connect(page, page.getByTestId('node-start'), guardrail);
  await connectHandle(page, guardrail.locator('[data-handleid="pass"]'), end);
  await connectHandle(page, guardrail.locator('[data-handleid="fail"]'), end);
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(3);

  // Its panel: the text to check, and the PII check with its entities and action.
  await guardrail.click();
  const panel = page.getByRole('tabpanel', { name: 'Properties' });
  await expect(panel.getByText("The previous step's text when empty.")).toBeVisible();
  await panel.getByLabel('Target').fill('input.text');
  const checks = panel.getByRole('region', { name: 'Checks' });
  const pii = checks.getByRole('listitem', { name: 'Check 1: PII' });
  await expect(pii.getByRole('checkbox', { name: 'Email' })).toBeChecked();
  await expect(pii.getByLabel('Action')).toHaveText('Redact');
  await expect(panel.getByTestId('guardrail-paths')).toHaveText(
    'Pass and FailPassed text goes on by Pass, blocked text by Fail.',
  );
  await page.getByRole('button', { name: /Validate/ }).click();
  await expect(page.getByRole('region', { name: 'Validation results' })).toContainText('Validation Passed');
  await page.getByRole('button', { name: 'Close validation results' }).click();
  await snapScreens(page, checks, 'guardrail-step-panel');

  await page.getByRole('button', { name: /Save Draft/ }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  const list = (await (await request.get('/api/workflows', { headers })).json()) as {
    id: string;
    name: string;
    nodes: { id: string; type: string; data: Record<string, unknown> }[];
    edges: { source: string; target: string; sourceHandle?: string | null }[];
  }[];
  const saved = list.find((w) => w.name === name)!;
  const node = saved.nodes.find((n) => n.type === 'guardrail')!;
  expect(node.data).toMatchObject({
    target: 'input.text',
    checks: [{ type: 'pii', enabled: true, action: 'redact' }],
  });
  expect(
    saved.edges
      .filter((e) => e.source === node.id)
      .map((e) => e.sourceHandle)
      .sort(),
  ).toEqual(['fail', 'pass']);

  // Run it on a text with an email.
  const activated = await request.put(`/api/workflows/${saved.id}`, { headers, data: { status: 'active' } });
  expect(activated.status(), await activated.text()).toBe(200);
  const started = await request.post(`/api/workflows/${saved.id}/execute`, {
    headers,
    data: { input: { text: INPUT } },
  });
  expect(started.status(), await started.text()).toBe(202);
  const runId = (await started.json()).id as string;
  await expect
    .poll(
      async () => {
        const run = await (await request.get(`/api/executions/${runId}`, { headers })).json();
        return run.status === 'failed' ? `failed: ${run.error}` : run.status;
      },
      { timeout: 30_000 },
    )
    .toBe('completed');

  const inspector = await openStepInspector(page, name, runId, 'guardrail');
  await expect(inspector.getByText('Passed', { exact: true })).toBeVisible();
  await expect(inspector.getByTestId('guardrail-text')).toHaveText('Write to [EMAIL] please');
  await expect(inspector.getByTestId('guardrail-text').locator('mark')).toHaveText('[EMAIL]');
  const finding = inspector.getByTestId('guardrail-finding');
  await expect(finding).toHaveCount(1);
  await expect(finding.getByRole('cell')).toHaveText(['PII', 'Email', '9–24', 'Redact']);
  // The address itself is kept nowhere in the step.
  await expect(inspector).not.toContainText('ana@example.com');
  await snapScreens(page, inspector, 'guardrail-step-inspector');
  expect(errors).toEqual([]);
});

// Agent guardrails: the agent's Advanced tab edits the checks on its input, its answer and its tool
// calls with the same editor, and a save sends them as the agent's `guardrails`.
test('an agent’s guardrails: a check on its answer, saved on the agent', async ({ page, request }) => {
  test.setTimeout(120_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const created = await request.post('/api/agents', {
    headers,
    data: { name: 'Support', role: 'Answers customers', goal: 'Kind answers' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const agent = (await created.json()) as { id: string };
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/agents/edit/${agent.id}`);
  await page.getByRole('tab', { name: 'Advanced' }).click();
  const section = page.getByRole('region', { name: 'Guardrails' });
  await expect(section.getByText('No checks.')).toHaveCount(3);

  await section.getByRole('button', { name: 'Add check (On its answer)' }).click();
  await page.getByRole('menuitem', { name: 'PII' }).click();
  await section.getByRole('button', { name: 'Add check (On its tool calls)' }).click();
  await page.getByRole('menuitem', { name: 'Secrets' }).click();
  const pii = section.getByRole('listitem', { name: 'Check 1: PII' });
  await pii.getByRole('checkbox', { name: 'National ID' }).click();
  await expect(pii.getByRole('checkbox', { name: 'Spain' })).toHaveCount(0);
  await snapScreens(page, section, 'agent-guardrails');

  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect
    .poll(async () => (await (await request.get(`/api/agents/${agent.id}`, { headers })).json()).guardrails)
    .toEqual({
      output: [
        { type: 'pii', enabled: true, entities: ['email', 'phone', 'card', 'iban', 'ip'], action: 'redact' },
      ],
      tools: [{ type: 'secrets', enabled: true, action: 'block' }],
    });
  // After a reload, the form reads them back.
  await page.reload();
  await page.getByRole('tab', { name: 'Advanced' }).click();
  await expect(section.getByRole('listitem', { name: 'Check 1: PII' })).toBeVisible();
  await expect(section.getByText('No checks.')).toHaveCount(1);
});
