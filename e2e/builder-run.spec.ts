import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { expect, expectToast, signInAs, snap, snapScreens, test } from './fixtures';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

// Run from the builder: the Execute dialog, then the run panel under the canvas, where the step's
// answer streams in as the model writes it, then its stored answer and what the model was asked.

let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

test('run from the builder and watch the step’s answer stream into the run panel', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  // Sixty words, 150 ms apart: about 9 s of answer, time enough to see it grow on a busy machine (with
  // thirty, a loaded CI machine first showed the step once it had completed).
  fake.script([{ content: words(60), chunkDelayMs: 150 }]);

  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await expect(dialog.getByTestId('run-unsaved-notice')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, `"${workflow.name}" execution has been started`);

  const panel = page.getByTestId('run-panel');
  const step = panel.getByTestId('run-panel-step');
  await expect(step).toHaveCount(1);
  await expect(step.getByTestId('run-panel-step-name')).toHaveText(AGENT.name);
  // Part of the answer shows while the step is still running.
  await expect(step).toHaveAttribute('data-step-status', 'running');
  await expect(step.getByTestId('run-panel-step-text')).toContainText('word2');
  expect(await step.getByTestId('run-panel-step-text').textContent()).not.toContain('word59');
  await expect(step).toHaveAttribute('data-step-status', 'running');
  await snap(page, 'builder-run-streaming');

  // Then the stored answer, its figures, and what the model was asked.
  await expect(step).toHaveAttribute('data-step-status', 'completed', { timeout: 30_000 });
  await expect(step.getByTestId('run-panel-step-text')).toHaveText(words(60));
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-run-status', 'completed');
  await expect(step).toContainText(/tokens · (< )?\$\d/);
  // The run's cost on the panel's line (the agent is on gpt-4o, which is priced).
  await expect(panel.getByTestId('run-panel-cost')).toHaveText(/^(< )?\$\d[\d,]*\.\d{2,4}$/);
  await step.getByRole('button', { name: /Inspect step/ }).click();
  await expect(step.getByTestId('step-message').nth(0)).toContainText(`You are ${AGENT.name}`);
  await snapScreens(page, panel, 'builder-run-completed');

  // The panel folds to its summary line, and Hide clears the run from the canvas.
  await panel.getByRole('button', { name: 'Hide the run’s steps' }).click();
  await expect(step).toHaveCount(0);
  await panel.getByRole('button', { name: 'Hide run progress' }).click();
  await expect(panel).toHaveCount(0);
});

test('a running step streams in the run details too', async ({ page, request }) => {
  test.setTimeout(60_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  // Sixty words, 150 ms apart: the details open well before the step ends, even on a busy machine.
  fake.script([{ content: words(60), chunkDelayMs: 150 }]);

  await signInAs(page, account);
  await page.goto(`/workflows/edit/${workflow.id}`);
  // An unsaved edit: the dialog says the run uses the saved workflow.
  await page.getByRole('textbox', { name: 'Workflow name' }).fill(`${workflow.name} (edited)`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await expect(dialog.getByTestId('run-unsaved-notice')).toContainText(
    'your unsaved changes are not part of it',
  );
  await dialog.getByRole('button', { name: 'Execute' }).click();

  const panel = page.getByTestId('run-panel');
  await expect(panel.getByTestId('run-panel-step-text')).toContainText('word1');
  await panel.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const live = details.getByTestId('live-step');
  await expect(live.getByTestId('live-step-name')).toHaveText(AGENT.name);
  await expect(live.getByTestId('live-step-text')).toContainText(/word\d+/);
  // It grows while the model writes, and gives way to the stored answer.
  const first = (await live.getByTestId('live-step-text').textContent()) ?? '';
  await expect
    .poll(async () => ((await live.getByTestId('live-step-text').textContent()) ?? '').length)
    .toBeGreaterThan(first.length);
  await expect(details.getByTestId('agent-output-content')).toHaveText(words(60), { timeout: 20_000 });
  await expect(live).toHaveCount(0);
});
